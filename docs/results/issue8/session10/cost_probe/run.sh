#!/bin/bash
# Cost A/B: one binary; A = shipped profile (cost from the fastest times), B = the same
# calibration with the cost re-measured as medians of paired per-round ratios.
cd /work/main
for round in 1 2 3; do
  order="A B"; [ $round = 2 ] && order="B A"
  for X in $order; do
    flock /tmp/model.lock /tmp/ab/reader_C bench --methods ar,reader --sets rag,humaneval,gsm8k,mt_bench,code_edit,multi_turn,summarization --prompts 8 --prompt-offset 20 -n 128 --profile /tmp/ab/prof$X.json --out /tmp/ab/c/${X}_$round > /tmp/ab/c/${X}_$round.log 2>&1
  done
done
for seed in 1 2; do
  order="A B"; [ $seed = 2 ] && order="B A"
  for X in $order; do
    flock /tmp/model.lock /tmp/ab/reader_C bench --methods ar,reader --sets rag,humaneval,gsm8k,mt_bench,code_edit --prompts 6 --prompt-offset 20 -n 128 --temp 0.8 --seed $seed --profile /tmp/ab/prof$X.json --out /tmp/ab/c/${X}_s$seed > /tmp/ab/c/${X}_s$seed.log 2>&1
  done
done
echo done > /tmp/ab/c/DONE
