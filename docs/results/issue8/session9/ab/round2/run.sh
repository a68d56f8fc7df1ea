#!/bin/bash
# Alternated A/B/C: baseline, max_suffix_len 16, text decides ties at match >= 4.
cd /work/main
M=models/SmolLM2-135M-Instruct.Q8_0.gguf
common="--methods ar,reader --sets rag,humaneval,gsm8k,mt_bench,code_edit,multi_turn,summarization --prompts 8 --prompt-offset 20 -n 128"
declare -A BIN=([A]=/tmp/ab/reader_A [B]=/tmp/ab/reader_B [C]=/tmp/ab/reader_C [D]=/tmp/ab/reader_A [E]=/tmp/ab/reader_B)
declare -A PRO=([A]=/tmp/ab/A_profile.json [B]=/tmp/ab/B_profile.json [C]=/tmp/ab/C_profile.json [D]=/tmp/ab/D_profile.json [E]=/tmp/ab/E_profile.json)
for r in 1 2 3; do
  case $r in 1) order="D E";; 2) order="E D";; 3) order="D E";; esac
  for v in $order; do
    flock /tmp/model.lock ${BIN[$v]} bench -m $M --profile ${PRO[$v]} $common --out /tmp/ab10/${v}_$r > /tmp/ab10/${v}_$r.log 2>&1
    echo "$(date +%T) $v $r done"
  done
done
echo done
