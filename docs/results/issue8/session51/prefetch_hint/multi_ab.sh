#!/bin/bash
# Session 51: session 50's ab_env.sh for any number of arms, their order rotated every round.
# usage: multi_ab.sh LIB_DIR DPROBE ROUNDS ITERS "label:VAR=VALUE ..." ...  (SIZES: default "1 8")
# LIB_DIR: libggml-cpu built with session50/decode_anatomy/opprof.diff and prefetch_env.diff.
lib=$1 dprobe=$2 rounds=$3 iters=$4; shift 4
arms=("$@"); na=${#arms[@]}
model=models/SmolLM2-135M-Instruct.Q8_0.gguf tsc=2.3
for r in $(seq 1 "$rounds"); do
  for i in $(seq 0 $((na-1))); do
    arm=${arms[$(( (i + r) % na ))]}
    label=${arm%%:*}; read -r -a vars <<< "${arm#*:}"
    for n in ${SIZES:-1 8}; do
      echo -n "$label n=$n r=$r "
      env "${vars[@]}" READER_OPPROF=1 LD_LIBRARY_PATH="$lib" "$dprobe" "$model" $n "$iters" 2>&1 |
        awk -v it="$iters" -v tsc="$tsc" '
          /^MUL_MAT/ { printf "mm %.3f ", ($2 + $4) / 2 / it / tsc }
          /^FLASH/ { printf "fa %.3f ", ($2 + $4) / 2 / it / tsc }
          /^n=/ { print "wall", $3 }'
    done
  done
done
