#!/bin/bash
# usage: run.sh round variants...   (outputs /tmp/ab/r<round>_<variant>)
# BENCH_ARGS (optional): more reader bench arguments, e.g. "--profile FILE" (session 18)
# READER_BIN (optional): the reader binary to run, e.g. another build's (session 19)
# SETS (optional): the sets, comma-separated (default: all seven of the report; session 43)
cd /work/main
r=$1; shift
for v in "$@"; do
  case $v in
    base) env=();;
    new) env=();;
    T2) env=(RX_TOK_W=2);;
    T4) env=(RX_TOK_W=4);;
    T3) env=(RX_TOK_W=3);;
    RC) env=(RX_TOK_W=3 RX_RC=1);;
    *) env=();;  # any other name labels a run whose knobs the caller's environment sets
  esac
  out=/tmp/ab/r${r}_$v
  flock /tmp/model.lock env "${env[@]}" ${READER_BIN:-build/bin/reader} bench --methods ar,reader --sets ${SETS:-rag,gsm8k,mt_bench,summarization,code_edit,humaneval,multi_turn} --prompt-offset 20 --prompts 8 -n 128 ${BENCH_ARGS:-} -o $out > $out.log 2>&1
  echo "$v done $(date +%T)"
done
