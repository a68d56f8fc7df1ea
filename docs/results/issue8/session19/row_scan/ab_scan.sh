#!/bin/bash
# usage: ab_scan.sh ROUNDS -> /tmp/ab/rs19scan_r<round>_{old,new} (session 16's decision loop)
# BIN_DIR holds reader_old (the build before the change) and reader_new; default /tmp/s19
cd /work/main
S=docs/results/issue8/session16/token_record_ab/run.sh
for r in $(seq 1 $1); do
  if [ $((r % 2)) = 1 ]; then order="old new"; else order="new old"; fi
  for v in $order; do READER_BIN=${BIN_DIR:-/tmp/s19}/reader_$v bash $S s19scan_r$r $v; done
done
