#!/bin/bash
# usage: ab.sh FIRST LAST -> /tmp/ab/rs19cost_r<round>_{old,new} (session 16's decision loop)
# old: the build before the probe change with its profile; new: this build with a cost-only re-tune
cd /work/main
S=docs/results/issue8/session16/token_record_ab/run.sh
for r in $(seq $1 $2); do
  if [ $((r % 2)) = 1 ]; then order="old new"; else order="new old"; fi
  for v in $order; do
    if [ $v = old ]; then bin=/tmp/s19/reader_new; prof=/tmp/s19/prof_old.json; else bin=/tmp/s19/reader_after_ar; prof=/tmp/s19/prof_new.json; fi
    READER_BIN=$bin BENCH_ARGS="--profile $prof" bash $S s19cost_r$r $v
  done
done
