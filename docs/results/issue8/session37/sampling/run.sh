#!/bin/bash
# Greedy and T = 0.8 (seeds 1-3) alternated, ROUNDS rounds (default 3), on the report prompts
# (first 10) of SETS (default gsm8k,code_edit: session 37's hour); summary.py OUT reads the
# result. EXTRA: more bench arguments (session 43: --bound, every set). Session 37 ran a copy
# of the build.
#   [BIN=build/bin/reader] [SETS=a,b] [ROUNDS=n] [EXTRA=...] run.sh OUT
BIN=${BIN:-build/bin/reader}
SETS=${SETS:-gsm8k,code_edit}
OUT=${1:?usage: run.sh OUT}
mkdir -p "$OUT"
for round in $(seq 1 "${ROUNDS:-3}"); do
  for cfg in greedy s1 s2 s3; do
    case $cfg in greedy) extra="";; s*) extra="--temp 0.8 --seed ${cfg#s}";; esac
    # shellcheck disable=SC2086  # $extra and $EXTRA are lists of arguments
    $BIN bench --methods ar,reader --sets "$SETS" --prompts 10 -n 128 $extra ${EXTRA:-} \
      --out "$OUT/r${round}_$cfg" > "$OUT/r${round}_$cfg.log" 2>&1
    echo "$(date +%T) round $round $cfg done"
  done
done
