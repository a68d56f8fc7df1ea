#!/bin/bash
# usage: ab_cost.sh FIRST LAST -> /tmp/ab/s19cost_r<round>_{old,new}
# old: the build before the probe change with its profile; new: this build with a cost-only re-tune
cd /work/main
for r in $(seq $1 $2); do
  if [ $((r % 2)) = 1 ]; then order="old new"; else order="new old"; fi
  for v in $order; do
    if [ $v = old ]; then bin=/tmp/s19/reader_new; prof=/tmp/s19/prof_old.json; else bin=/tmp/s19/reader_after_ar; prof=/tmp/s19/prof_new.json; fi
    out=/tmp/ab/s19cost_r${r}_$v
    flock /tmp/model.lock $bin bench --profile $prof --methods ar,reader --sets rag,gsm8k,mt_bench,summarization,code_edit,humaneval,multi_turn --prompt-offset 20 --prompts 8 -n 128 -o $out > $out.log 2>&1
    echo "$r $v done $(date +%T)"
  done
done
