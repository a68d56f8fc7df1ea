#!/bin/bash
cd /work/main
for r in 1 2 3; do
  flock /tmp/model.lock build/bin/reader bench --methods ar,reader --sets rag,humaneval,gsm8k,mt_bench,code_edit,multi_turn,summarization --prompts 10 -n 128 --bound --peers --peer-configs "llama:ngram-map-k n3 m8,llama-lookup" -o docs/results/issue8/session17/report_$r > /tmp/report_$r.log 2>&1
  echo "report $r done $(date +%T)"
done
