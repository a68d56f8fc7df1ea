#!/bin/bash
# Session 51: arms of reader bench on the decision slices (items 20-27 of every set, greedy,
# 128 tokens), ROUNDS rounds, the arms' order rotated every round.
# usage: run.sh ROUNDS "name|bench args" ...   or arms "name|VAR=value ...|bench args" (session
# 52: environment for that arm's process); BIN: the reader binary (default build/bin/reader).
# Output in /tmp/ab/r<round>_<name>; session43/unverified_ab/sum.py and session49/repack_ab/abs_speed.py read it.
cd /work/main
mkdir -p /tmp/ab
rounds=$1; shift
arms=("$@"); na=${#arms[@]}
for r in $(seq 1 $rounds); do
  for i in $(seq 0 $((na-1))); do
    spec=${arms[$(( (i + r) % na ))]}
    name=${spec%%|*}; args=${spec#*|}; envs=
    if [[ $args == *"|"* ]]; then envs=${args%%|*}; args=${args#*|}; fi
    out=/tmp/ab/r${r}_$name
    env $envs ${BIN:-build/bin/reader} bench --methods ar,reader --sets ${SETS:-rag,gsm8k,mt_bench,summarization,code_edit,humaneval,multi_turn} --prompt-offset 20 --prompts 8 -n 128 $args -o $out > $out.log 2>&1
    echo "$name r$r done $(date +%T)"
  done
done
