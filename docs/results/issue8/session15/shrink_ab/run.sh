#!/bin/bash
# usage: run.sh round variants...
cd /work/main
r=$1; shift
for v in "$@"; do
  case $v in
    base) env=();;
    S) env=(RX_SPEC=0.87);;
    L) env=(RX_LOW_T=0.45 RX_LOW_F=0.7);;
    SL) env=(RX_SPEC=0.87 RX_LOW_T=0.45 RX_LOW_F=0.7);;
    L2) env=(RX_LOW_T=0.4 RX_LOW_F=0.5);;
  esac
  out=/tmp/ab/r${r}_$v
  flock /tmp/model.lock env "${env[@]}" build/bin/reader bench --methods ar,reader --sets rag,gsm8k,mt_bench,summarization,code_edit,humaneval,multi_turn --prompt-offset 20 --prompts 8 -n 128 -o $out > $out.log 2>&1
  echo "$v done $(date +%T)"
done
