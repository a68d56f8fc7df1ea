#!/bin/bash
# Session 11: the main comparison three times on the report prompts (each set's first 10),
# then sampling at T = 0.8 for seeds 1-3 on each set's first 6. One model process at a time.
cd "$(dirname "$0")/../../../.."
OUT=docs/results/issue8/session11
for round in 1 2 3; do
  flock /tmp/model.lock build/bin/reader bench --methods ar,reader,retrieval,suffix \
    --sets rag,humaneval,gsm8k,mt_bench,code_edit,multi_turn,summarization --prompts 10 -n 128 \
    --bound --peers --peer-configs "llama:ngram-simple n3 m8,llama:ngram-map-k n3 m8,llama:ngram-mod match4 min2 max8,llama-lookup" \
    -o $OUT/main_$round > /tmp/s11_main_$round.log 2>&1
done
for seed in 1 2 3; do
  flock /tmp/model.lock build/bin/reader bench --methods ar,reader --sets rag,humaneval,gsm8k,mt_bench,code_edit \
    --prompts 6 -n 128 --temp 0.8 --seed $seed -o $OUT/sampling/seed$seed > /tmp/s11_s$seed.log 2>&1
done
echo done > /tmp/s11_DONE
