#!/bin/bash
# arms "name|ENVASSIGN|bench args"
cd /work/main
mkdir -p /tmp/ab
rounds=$1; shift
arms=("$@"); na=${#arms[@]}
for r in $(seq 1 $rounds); do
  for i in $(seq 0 $((na-1))); do
    spec=${arms[$(( (i + r) % na ))]}
    name=${spec%%|*}; rest=${spec#*|}; envs=${rest%%|*}; args=${rest#*|}
    out=/tmp/ab/r${r}_$name
    env $envs flock /tmp/model.lock /tmp/reader_ab bench --methods ar,reader --sets ${SETS:-rag,gsm8k,mt_bench,summarization,code_edit,humaneval,multi_turn} --prompt-offset 20 --prompts 8 -n 128 $args -o $out > $out.log 2>&1
    echo "$name r$r done $(date +%T)"
  done
done
