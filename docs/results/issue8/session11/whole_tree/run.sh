#!/bin/bash
cd /work/main
for round in 1 2; do
  order="path tree"; [ $round = 2 ] && order="tree path"
  for X in $order; do
    flock /tmp/model.lock /tmp/ab/reader bench --methods ar,reader --sets rag,humaneval,gsm8k,mt_bench,code_edit,multi_turn,summarization --prompts 8 --prompt-offset 20 -n 128 --profile /tmp/ab/$X.json --out /tmp/ab/t/${X}_$round > /tmp/ab/t/${X}_$round.log 2>&1
  done
done
echo done > /tmp/ab/t/DONE
