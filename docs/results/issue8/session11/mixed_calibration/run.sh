#!/bin/bash
# Calibration A/B: one binary; ship = setup's profile (MT-Bench ids 121-160), mixc = calibrated
# on items 40-47 of mt_bench, gsm8k, humaneval, rag and summarization; both with ship's cost.
cd /work/main
for round in 1 2; do
  order="ship mixc"; [ $round = 2 ] && order="mixc ship"
  for X in $order; do
    flock /tmp/model.lock /tmp/ab/reader2 bench --methods ar,reader --sets rag,humaneval,gsm8k,mt_bench,code_edit,multi_turn,summarization --prompts 8 --prompt-offset 20 -n 128 --profile /tmp/ab/$X.json --out /tmp/ab/m/${X}_$round > /tmp/ab/m/${X}_$round.log 2>&1
  done
done
echo done > /tmp/ab/m/DONE
