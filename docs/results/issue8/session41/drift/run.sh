#!/bin/bash
# One-token and 8-token decode medians at 400 cached tokens, every ~20 s: does the ratio move with the host's speed?
# M: the model; P: steps/ndecode.cpp built as steps/results.txt says
M=${M:-models/SmolLM2-135M-Instruct.Q8_0.gguf}
P=${P:-./ndecode}
end=$((SECONDS + ${1:-900}))
while [ $SECONDS -lt $end ]; do
  a=$($P $M 1 400 100 | awk '{print $5}'); b=$($P $M 8 400 100 | awk '{print $5}'); c=$($P $M 1 400 100 | awk '{print $5}')
  echo "$(date +%T) $a $b $c"
  sleep 15
done
