#!/bin/bash
# Copies seconded by the speculator's rows against the shipped drafter: session 16's A/B loop
# on the decision slices (items 20-27 of every set), greedy and at T = 0.8 (seed = round),
# three rounds, the arms' order swapped in round 2. /tmp/reader_base + PROFILE_BASE: the
# shipped build and profile; /tmp/reader_sec + PROFILE_SEC: this change, with the shipped
# profile's cost and shape and the counts of a calibration by this change (merge_profile.py).
# Output in /tmp/ab/r<round>_<arm>[T]; session43/unverified_ab/sum.py reads it.
cd "$(dirname "$0")/../../../../.." || exit 1
for r in 1 2 3; do
  for arm in base sec; do
    [ $r = 2 ] && { [ $arm = base ] && arm=sec || arm=base; }
    profile=PROFILE_${arm^^}
    READER_BIN=/tmp/reader_$arm BENCH_ARGS="--profile ${!profile}" \
      bash docs/results/issue8/session16/token_record_ab/run.sh $r $arm
    READER_BIN=/tmp/reader_$arm BENCH_ARGS="--profile ${!profile} --temp 0.8 --seed $r" \
      bash docs/results/issue8/session16/token_record_ab/run.sh $r ${arm}T
  done
done
