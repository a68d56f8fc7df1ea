#!/bin/bash
# Sampling check: greedy and T = 0.8 with seeds 1-3 on each set's first 6 items.
# usage: run.sh [OUT_DIR]   (default: session 17's sampling/)
cd /work/main
O=${1:-docs/results/issue8/session17/sampling}
for s in greedy 1 2 3; do
  if [ $s = greedy ]; then extra=(); else extra=(--temp 0.8 --seed $s); fi
  flock /tmp/model.lock build/bin/reader bench --methods ar,reader --sets rag,humaneval,gsm8k,mt_bench,code_edit --prompts 6 -n 128 "${extra[@]}" -o $O/$s > /tmp/sampling_$s.log 2>&1
  echo "$s done $(date +%T)"
done
