#!/bin/bash
# Alternated rounds on the decision slices (items 20-35 of the seven sets), single sequence:
# arm A with flags $1, arm B with flags $2 (quoted), $4 rounds (default 2), into $3.
cd "$(dirname "$0")/../../../../.."
A=$1; B=$2; OUT=$3; R=${4:-2}
mkdir -p "$OUT"
for r in $(seq 1 "$R"); do
  for arm in A B; do
    flags=$A; [ $arm = B ] && flags=$B
    # shellcheck disable=SC2086
    build/bin/reader bench --methods ar,reader --sets rag,gsm8k,mt_bench,summarization,code_edit,humaneval,multi_turn \
      --prompt-offset 20 --prompts 16 -n 128 $flags -o "$OUT/${arm}_$r" > "$OUT/${arm}_$r.log" 2>&1
    echo "$arm $r done $(date +%T)"
  done
done
