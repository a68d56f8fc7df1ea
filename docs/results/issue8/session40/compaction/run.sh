#!/bin/bash
# Whole trees with a max_tokens that reaches the end of the context (session 40's compaction)
# against one path a step, which is what the engine verified there before: alternated rounds,
# one binary, decision slices.   run.sh OUT ROUNDS   (then session39/trees/sum.py OUT)
here=$(cd "$(dirname "$0")" && pwd); OUT=$1; R=$2
mkdir -p "$OUT"
for r in $(seq 1 "$R"); do
  for arm in trees path; do
    ${BIN:-build/bin/reader} bench --methods ar,reader --profile "$here/$arm.json" --ctx 2048 -n 2048 --sets rag,humaneval,gsm8k,mt_bench,code_edit,summarization \
      --prompt-offset 20 --prompts 4 -o "$OUT/${arm}_$r" > "$OUT/${arm}_$r.log" 2>&1
    echo "$arm $r $(date +%T)"
  done
done
