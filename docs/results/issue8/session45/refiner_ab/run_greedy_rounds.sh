#!/bin/bash
# The third A/B (ab3): greedy only, rounds 4-6, the shipped profile (base) against the same with
# the refiners (ref), one binary (/tmp/reader_new, this change), the arms' order swapped in
# round 5. Output in /tmp/ab/r<round>_<arm>.
cd "$(dirname "$0")/../../../../.." || exit 1
for r in 4 5 6; do
  if [ $r = 5 ]; then arms="ref base"; else arms="base ref"; fi
  for arm in $arms; do
    [ $arm = base ] && prof=/tmp/prof/base.json || prof=/tmp/prof/refined.json
    READER_BIN=/tmp/reader_new BENCH_ARGS="--profile $prof" \
      bash docs/results/issue8/session16/token_record_ab/run.sh $r $arm
  done
done
