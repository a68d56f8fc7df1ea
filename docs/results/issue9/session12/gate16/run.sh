#!/bin/bash
cd /work/main
for v in gate before_gate before_gate gate; do
  n=$((${n:-0}+1))
  flock /tmp/model.lock /tmp/s12/reader_$v bench --sets mt_bench,gsm8k --prompts 16 --prompt-offset 20 -n 64 --repeats 3 --ctx 2048 --batch 16 --methods ar,reader -o /tmp/s12/gate_${v}_$n > /dev/null 2>&1
done
echo done
