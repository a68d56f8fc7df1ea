#!/bin/bash
# Sampling against its own bound: greedy and T = 0.8 with seeds 1-3 on each set's first 6
# items, with the copy-oracle bound computed from each run's own AR text.
# usage: run.sh [OUT_DIR]
cd "$(dirname "$0")/../../../../.." || exit 1
O=${1:-docs/results/issue8/session27/sampling_bound}
for s in greedy 1 2 3; do
  if [ $s = greedy ]; then extra=(); else extra=(--temp 0.8 --seed $s); fi
  build/bin/reader bench --methods ar,reader --sets rag,humaneval,gsm8k,mt_bench,code_edit --prompts 6 -n 128 --bound "${extra[@]}" -o "$O/$s" > "$O/$s.log" 2>&1
  echo "$s done $(date +%T)"
done
