#!/bin/bash
cd /work/main
S=docs/results/issue8/session16/token_record_ab/run.sh
for r in 1 2 3; do
  if [ $((r % 2)) = 1 ]; then order="base R6"; else order="R6 base"; fi
  for v in $order; do
    if [ $v = R6 ]; then RX_REUSE=0.056 bash $S s19r$r R6; else RX_REUSE=0 bash $S s19r$r base; fi
  done
done
