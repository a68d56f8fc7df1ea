#!/bin/bash
cd /work/main
r=$1; shift
for v in "$@"; do
  case $v in
    base) extra=();;
    real) extra=(--profile /tmp/ab/realcost.profile.json);;
  esac
  out=/tmp/ab/c${r}_$v
  flock /tmp/model.lock build/bin/reader bench --methods ar,reader --sets rag,gsm8k,mt_bench,summarization,code_edit,humaneval,multi_turn --prompt-offset 20 --prompts 8 -n 128 "${extra[@]}" -o $out > $out.log 2>&1
  echo "$v done $(date +%T)"
done
