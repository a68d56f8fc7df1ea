#!/bin/bash
# The report: three runs of every method and the two best peers on each set's first 10 items.
# usage: report_run.sh [OUT_PREFIX]   (runs go to OUT_PREFIX{1,2,3}; default: session 17's)
cd /work/main
prefix=${1:-docs/results/issue8/session17/report_}
for r in 1 2 3; do
  flock /tmp/model.lock build/bin/reader bench --methods ar,reader --sets rag,humaneval,gsm8k,mt_bench,code_edit,multi_turn,summarization --prompts 10 -n 128 --bound --peers --peer-configs "llama:ngram-map-k n3 m8,llama-lookup" -o $prefix$r > /tmp/report_$r.log 2>&1
  echo "report $r done $(date +%T)"
done
