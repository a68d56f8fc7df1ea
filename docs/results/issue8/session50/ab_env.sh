#!/bin/bash
# Alternates two arms of decode_anatomy/dprobe.cpp on a library built with opprof.diff (and
# whatever environment switch the arms differ by), ROUNDS rounds, order swapped every round,
# one-token and eight-token decodes at 512 cached tokens, ITERS decodes each. An arm is
# "LABEL:VAR=VALUE ..." (nothing after the colon: none set). Prints, per run,
# "LABEL n=N r=R mm MS [fa MS] wall MS": the matmul's and attention's own time per decode (the
# threads' mean of opprof's cycles at TSC_GHZ, the 512-token prefill's share included: the
# same in both arms, so their ratios lean toward 1) and the decode's wall median; paired_ab.py
# reads it.
#   ab_env.sh LIB_DIR DPROBE ROUNDS ITERS ARM_A ARM_B
set -euo pipefail
lib=$1 dprobe=$2 rounds=$3 iters=$4 arm_a=$5 arm_b=$6
model=${MODEL:-models/SmolLM2-135M-Instruct.Q8_0.gguf} tsc=${TSC_GHZ:-2.3}
for r in $(seq 1 "$rounds"); do
  if (( r % 2 )); then order=("$arm_a" "$arm_b"); else order=("$arm_b" "$arm_a"); fi
  for arm in "${order[@]}"; do
    label=${arm%%:*}; read -r -a vars <<< "${arm#*:}"
    for n in 1 8; do
      echo -n "$label n=$n r=$r "
      env "${vars[@]}" READER_OPPROF=1 LD_LIBRARY_PATH="$lib" "$dprobe" "$model" $n "$iters" 2>&1 |
        awk -v it="$iters" -v tsc="$tsc" '
          /^MUL_MAT/ { printf "mm %.3f ", ($2 + $4) / 2 / it / tsc }
          /^FLASH/ && ENVIRON["WITH_FA"] { printf "fa %.3f ", ($2 + $4) / 2 / it / tsc }
          /^n=/ { print "wall", $3 }'
    done
  done
done
