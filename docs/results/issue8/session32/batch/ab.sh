#!/bin/bash
# Three alternated rounds of bench --batch: arm A with the temporary switch VAR set (the old
# rule, a build-time experiment, not shipped), arm B without. Usage: ab.sh VAR OUT
VAR=$1 OUT=$2
mkdir -p "$OUT"
cd /work/main
for r in 1 2 3; do
  for arm in A B; do
    if [ $arm = A ]; then export "$VAR=1"; else unset "$VAR"; fi
    build/bin/reader bench --batch 2,4,8 --methods ar,reader --sets mt_bench,gsm8k,rag,humaneval --prompt-offset 40 --prompts 8 -n 64 --repeats 3 --ctx 2048 -o $OUT/${arm}_$r > $OUT/${arm}_$r.log 2>&1
    echo "$arm $r done $(date +%T)"
  done
done
