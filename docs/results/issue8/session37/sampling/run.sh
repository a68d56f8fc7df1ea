#!/bin/bash
# Greedy and T = 0.8 (seeds 1-3) alternated, three rounds, on the report prompts (first 10) of
# gsm8k and code_edit; summary.py OUT reads the result. Session 37 ran a copy of the build.
#   [BIN=build/bin/reader] run.sh OUT
BIN=${BIN:-build/bin/reader}
OUT=${1:?usage: run.sh OUT}
mkdir -p "$OUT"
for round in 1 2 3; do
  for cfg in greedy s1 s2 s3; do
    case $cfg in greedy) extra="";; s*) extra="--temp 0.8 --seed ${cfg#s}";; esac
    $BIN bench --methods ar,reader --sets gsm8k,code_edit --prompts 10 -n 128 $extra \
      --out "$OUT/r${round}_$cfg" > "$OUT/r${round}_$cfg.log" 2>&1
    echo "$(date +%T) round $round $cfg done"
  done
done
