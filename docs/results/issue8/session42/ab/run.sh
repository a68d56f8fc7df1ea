#!/bin/bash
# Attention prefetch A/B: the shipped kernel (A) against the kernel prefetching K and V rows
# 32 keys ahead (B), libggml-cpu built from the patched sdist and swapped in by LD_LIBRARY_PATH
# (LIB_A, LIB_B: folders holding libggml-cpu.so.0); one binary and profile, decision slices
# (items 20-27), alternated rounds.   run.sh OUT ROUNDS   (sum.py OUT, bysize.py OUT)
OUT=$(realpath -m "$1"); R=$2; mkdir -p "$OUT"; cd "$(dirname "$0")/../../../../.."
for r in $(seq 1 "$R"); do
  for arm in A B; do
    lib=$LIB_A; [ $arm = B ] && lib=$LIB_B
    LD_LIBRARY_PATH=$lib build/bin/reader bench --methods ar,reader --prompt-offset 20 --prompts 8 -n 128 \
      --peers --peer-configs "llama-lookup" -o "$OUT/${arm}_$r" > "$OUT/${arm}_$r.log" 2>&1
    echo "$arm $r $(date +%T)"
  done
done
