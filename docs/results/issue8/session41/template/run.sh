#!/bin/bash
# The second tune's profile (template a chain of 3) against the same profile with session 39's
# template (two guesses at the root, a chain of 3 under the first): alternated rounds, one
# binary, decision slices (items 20-27 of each set).  run.sh OUT ROUNDS  (session39/trees/sum.py OUT)
here=$(cd "$(dirname "$0")" && pwd); OUT=$1; R=$2
mkdir -p "$OUT"
for r in $(seq 1 "$R"); do
  for arm in tuned wide; do
    ${BIN:-build/bin/reader} bench --methods ar,reader --profile "$here/$arm.json" --prompt-offset 20 \
      --prompts 8 -n 128 -o "$OUT/${arm}_$r" > "$OUT/${arm}_$r.log" 2>&1
    echo "$arm $r $(date +%T)"
  done
done
