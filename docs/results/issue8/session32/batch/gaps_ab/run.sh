#!/bin/bash
cd /work/main
OUT=/tmp/s32/ab6
for r in 1 2 3; do
  for arm in A B; do
    if [ $arm = A ]; then export READER_NO_CLOSE_GAPS=1; else unset READER_NO_CLOSE_GAPS; fi
    build/bin/reader bench --batch 2,4,8 --methods ar,reader --sets mt_bench,gsm8k,rag,humaneval --prompt-offset 40 --prompts 8 -n 64 --repeats 3 --ctx 2048 -o $OUT/${arm}_$r > $OUT/${arm}_$r.log 2>&1
    echo "$arm $r done $(date +%T)"
  done
done
