#!/bin/bash
# The sampler before and after session 37 (two builds), alternated: T = 0.8, seeds 1-3, three
# rounds, each set's first 6 items (the sampling table's prompts); ab_sum.py OUT reads it.
#   OLD=path/to/reader NEW=path/to/reader run.sh OUT
OUT=${1:?usage: OLD=... NEW=... run.sh OUT}
for round in 1 2 3; do
  for seed in 1 2 3; do
    for arm in old new; do
      BIN=$OLD; [ $arm = new ] && BIN=$NEW
      "$BIN" bench --methods ar,reader --sets rag,humaneval,gsm8k,mt_bench,code_edit --prompts 6 \
        -n 128 --temp 0.8 --seed $seed --out "$OUT/r${round}_s${seed}_$arm" > "$OUT/r${round}_s${seed}_$arm.log" 2>&1
      echo "$(date +%T) round $round seed $seed $arm done"
    done
  done
done
