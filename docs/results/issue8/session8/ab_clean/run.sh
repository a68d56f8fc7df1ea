#!/bin/bash
cd /work/main
M=models/SmolLM2-135M-Instruct.Q8_0.gguf
common="--methods ar,reader --sets rag,humaneval,gsm8k,mt_bench,code_edit,multi_turn,summarization --prompts 8 --prompt-offset 20 -n 128"
declare -A BIN=([A]=/tmp/ab/reader_head [B]=/tmp/ab/reader_agree2 [C]=/tmp/ab/reader_ties)
declare -A PRO=([A]=/tmp/ab/old_profile.json [B]=/tmp/ab/B_profile.json [C]=/tmp/ab/C_profile.json)
for r in 1 2 3; do
  case $r in 1) order="A B C";; 2) order="C A B";; 3) order="B C A";; esac
  for v in $order; do
    flock /tmp/model.lock ${BIN[$v]} bench -m $M --profile ${PRO[$v]} $common --out /tmp/ab10/${v}_$r > /tmp/ab10/${v}_$r.log 2>&1
  done
done
echo done
