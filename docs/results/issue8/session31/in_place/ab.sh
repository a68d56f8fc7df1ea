#!/bin/bash
# alternated rounds on the decision slices: profile A then B
cd /work/main
A=$1; B=$2; OUT=$3; R=${4:-2}
for r in $(seq 1 $R); do
  for arm in A B; do
    prof=$A; [ $arm = B ] && prof=$B
    build/bin/reader bench --methods ar,reader --sets rag,gsm8k,mt_bench,summarization,code_edit,humaneval,multi_turn --prompt-offset 20 --prompts 16 -n 128 --profile $prof -o $OUT/${arm}_$r > $OUT/${arm}_$r.log 2>&1
    echo "$arm $r done $(date +%T)"
  done
done
