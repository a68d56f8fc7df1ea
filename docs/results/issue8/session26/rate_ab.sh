#!/bin/bash
# usage: rate_ab.sh ROUND — arms base / rate alternated, greedy decision slices
cd /work/main
r=$1
arms="base rate"; [ $((r % 2)) = 0 ] && arms="rate base"
for v in $arms; do
  out=/tmp/ab/rate_r${r}_$v
  if [ $v = rate ]; then export RX_RATE=1; else unset RX_RATE; fi
  build/bin/reader bench --methods ar,reader --sets rag,gsm8k,mt_bench,summarization,code_edit,humaneval,multi_turn --prompt-offset 20 --prompts 8 -n 128 -o $out > $out.log 2>&1
  echo "$v done $(date +%T)"
done
