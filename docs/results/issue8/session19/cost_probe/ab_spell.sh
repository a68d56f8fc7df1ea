#!/bin/bash
# Same build, two profiles differing only in the cost curve's spell: flat (the report's, setup's full tune) vs steep (the A/B's cost-only tune)
cd /work/main
for r in 1 2 3; do
  if [ $((r % 2)) = 1 ]; then order="flat steep"; else order="steep flat"; fi
  for v in $order; do
    if [ $v = flat ]; then prof=docs/results/issue8/session19/report/profile.json; else prof=/tmp/s19/prof_steep.json; fi
    out=/tmp/ab/s19spell_r${r}_$v
    flock /tmp/model.lock build/bin/reader bench --profile $prof --methods ar,reader --sets rag,gsm8k,mt_bench,summarization,code_edit,humaneval,multi_turn --prompt-offset 20 --prompts 8 -n 128 -o $out > $out.log 2>&1
    echo "$r $v done $(date +%T)"
  done
done
