#!/bin/bash
# One round on the decision slices, session 17's build: the shipped shape (base), whole trees
# from a bushier speculator template (tree.json, not bitwise: "Losslessness and rounding"), and
# the same template verified as a single path (chain.json).  usage: run.sh ROUND VARIANT...
cd /work/main
r=$1; shift
for v in "$@"; do
  case $v in base) t=();; *) t=(--tree docs/results/issue8/session18/whole_tree_probe/$v.json);; esac
  out=/tmp/tr/r${r}_$v
  flock /tmp/model.lock build/bin/reader bench --methods ar,reader "${t[@]}" --sets rag,gsm8k,mt_bench,summarization,code_edit,humaneval,multi_turn --prompt-offset 20 --prompts 8 -n 128 -o $out > $out.log 2>&1
  echo "$v done $(date +%T)"
done
