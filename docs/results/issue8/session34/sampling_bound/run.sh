#!/bin/bash
# Session 34: is code_edit's sampled speedup low because the sampled answers copy less? The
# copy-oracle bound of the same 6 prompts' outputs, greedy and T = 0.8 seeds 1-3.
set -e
OUT=$(dirname "$0")
for S in greedy 1 2 3; do
  T=0.8; [ $S = greedy ] && T=0 && SEED=1 || SEED=$S
  build/bin/reader bench --methods ar,reader --sets code_edit --prompts 6 -n 128 --bound \
    --temp $T --seed $SEED --out $OUT/$S 2>&1 | tail -20 > $OUT/$S.log
done
