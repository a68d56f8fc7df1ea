#!/bin/bash
# usage: ab_scan.sh ROUNDS -> /tmp/ab/s19scan_r<round>_{old,new}
# BIN_DIR holds reader_old (the build before the change) and reader_new; default /tmp/s19
cd /work/main
for r in $(seq 1 $1); do
  if [ $((r % 2)) = 1 ]; then order="old new"; else order="new old"; fi
  for v in $order; do
    out=/tmp/ab/s19scan_r${r}_$v
    flock /tmp/model.lock ${BIN_DIR:-/tmp/s19}/reader_$v bench --methods ar,reader --sets rag,gsm8k,mt_bench,summarization,code_edit,humaneval,multi_turn --prompt-offset 20 --prompts 8 -n 128 -o $out > $out.log 2>&1
    echo "$r $v done $(date +%T)"
  done
done
