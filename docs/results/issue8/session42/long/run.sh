#!/bin/bash
# Long-context A/B of the attention prefetch: rag_long (make_prompts.py), AR, READER and
# llama-lookup, the shipped-before kernel (A) against the prefetching one (B), libggml-cpu
# built from the patched sdist and swapped in by LD_LIBRARY_PATH (LIB_A, LIB_B); one binary
# and profile, alternated rounds.   run.sh PROMPTS OUT ROUNDS   (../ab/sum.py OUT)
PROMPTS=$1; OUT=$2; R=$3; mkdir -p "$OUT"
for r in $(seq 1 "$R"); do
  for arm in A B; do
    lib=$LIB_A; [ $arm = B ] && lib=$LIB_B
    LD_LIBRARY_PATH=$lib build/bin/reader bench --methods ar,reader --prompts-file "$PROMPTS" -n 128 \
      --peers --peer-configs "llama-lookup" -o "$OUT/${arm}_$r" > "$OUT/${arm}_$r.log" 2>&1
    echo "$arm $r $(date +%T)"
  done
done
