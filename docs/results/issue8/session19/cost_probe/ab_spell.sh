#!/bin/bash
# Same build, two profiles differing only in the cost curve's spell: flat (the report's, setup's
# full tune) vs steep (the A/B's cost-only tune). -> /tmp/ab/rs19spell_r<round>_{flat,steep}
cd /work/main
S=docs/results/issue8/session16/token_record_ab/run.sh
for r in 1 2 3; do
  if [ $((r % 2)) = 1 ]; then order="flat steep"; else order="steep flat"; fi
  for v in $order; do
    if [ $v = flat ]; then prof=docs/results/issue8/session19/report/profile.json; else prof=/tmp/s19/prof_steep.json; fi
    BENCH_ARGS="--profile $prof" bash $S s19spell_r$r $v
  done
done
