#!/bin/bash
# Alternated rounds of two arms that differ only in reader's flags (or environment).
#   ab_flags.sh single "FLAGS A" "FLAGS B" OUT [ROUNDS=2]  decision slices, one sequence
#   ab_flags.sh batch  "FLAGS A" "FLAGS B" OUT [ROUNDS=3]  bench --batch on --prompt-offset 40
# BIN: the binary (a copy, so that a build cannot change an arm mid-run); OFFSET: another
# --prompt-offset (0: the report's prompts); ENV_A, ENV_B: VAR=value settings for one arm.
cd "$(dirname "$0")/../../../../.." || exit 1
MODE=$1; A=$2; B=$3; OUT=$4
case $MODE in
  single) R=${5:-2}; bench=(--methods ar,reader --sets rag,gsm8k,mt_bench,summarization,code_edit,humaneval,multi_turn
                             --prompt-offset ${OFFSET:-20} --prompts 16 -n 128) ;;
  batch) R=${5:-3}; bench=(--batch 2,4,8 --methods ar,reader --sets mt_bench,gsm8k,rag,humaneval
                           --prompt-offset ${OFFSET:-40} --prompts 8 -n 64 --repeats 3 --ctx 2048) ;;
  *) echo "ab_flags.sh: mode must be single or batch" >&2; exit 2 ;;
esac
mkdir -p "$OUT"
for r in $(seq 1 "$R"); do
  for arm in A B; do
    flags=$A; settings=$ENV_A; [ $arm = B ] && flags=$B && settings=$ENV_B
    # shellcheck disable=SC2086
    env $settings ${BIN:-build/bin/reader} bench "${bench[@]}" $flags -o "$OUT/${arm}_$r" > "$OUT/${arm}_$r.log" 2>&1
    echo "$arm $r done $(date +%T)"
  done
done
