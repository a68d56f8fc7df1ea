#!/bin/bash
# Alternated rounds of bench --batch on the batch decisions' slice (--prompt-offset 40): arm A
# with flags $1, arm B with flags $2 (quoted), $4 rounds (default 3), into $3.
cd "$(dirname "$0")/../../../../.."
A=$1; B=$2; OUT=$3; R=${4:-3}
mkdir -p "$OUT"
for r in $(seq 1 "$R"); do
  for arm in A B; do
    flags=$A; [ $arm = B ] && flags=$B
    # shellcheck disable=SC2086
    build/bin/reader bench --batch 2,4,8 --methods ar,reader --sets mt_bench,gsm8k,rag,humaneval \
      --prompt-offset 40 --prompts 8 -n 64 --repeats 3 --ctx 2048 $flags -o "$OUT/${arm}_$r" > "$OUT/${arm}_$r.log" 2>&1
    echo "$arm $r done $(date +%T)"
  done
done
