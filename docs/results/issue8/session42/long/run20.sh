#!/bin/bash
# The shipped build on 20 long RAG prompts (items 20-39: make_prompts.py DATA OUT 20 20), AR,
# READER and llama.cpp's two best peers, three runs.   run20.sh PROMPTS OUT
PROMPTS=$(realpath "$1"); OUT=$(realpath -m "$2"); cd "$(dirname "$0")/../../../../.."
for r in 1 2 3; do
  build/bin/reader bench --methods ar,reader --prompts-file "$PROMPTS" -n 128 --peers \
    --peer-configs "llama-lookup,llama:ngram-map-k n3 m8" -o "$OUT/run_$r" > "$OUT/run_$r.log" 2>&1
  echo "run $r $(date +%T)"
done
