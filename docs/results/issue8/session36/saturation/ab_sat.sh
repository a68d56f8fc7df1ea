#!/bin/bash
# Alternated rounds: READER_SATURATION unset (1.5) against $1 (OFFSET=40, the batch decisions'
# prompts, or OFFSET=0, the unseen ones). The A/B binary read READER_SATURATION in
# Engine::step in place of the constant 1.5 (a temporary switch, not shipped: the shipped
# code has kSaturatedSecondToken = 1.35). Usage: BIN=... ab_sat.sh 1.35 OUT [ROUNDS]
cd "$(dirname "$0")/../../../../.." || exit 1; OUT=$2; R=${3:-3}; mkdir -p $OUT
for r in $(seq 1 $R); do for arm in A B; do
  if [ $arm = B ]; then export READER_SATURATION=$1; else unset READER_SATURATION; fi
  ${BIN:-build/bin/reader} bench --batch 2,4,8 --methods ar,reader --sets mt_bench,gsm8k,rag,humaneval --prompt-offset ${OFFSET:-40} --prompts 8 -n 64 --repeats 3 --ctx 2048 -o $OUT/${arm}_$r > $OUT/${arm}_$r.log 2>&1
  echo "$arm $r done $(date +%T)"
done; done
