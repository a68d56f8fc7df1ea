#!/bin/bash
# Learning from left-out proposals (unverified_feedback.diff) against the shipped drafter:
# session 16's A/B loop on the decision slices (items 20-27 of every set), three rounds, the
# arms' order swapped in round 2. /tmp/reader_base: the shipped build; /tmp/reader_cf: the
# same with the diff applied. Output in /tmp/ab/r<round>_<arm>; sum.py reads it.
cd "$(dirname "$0")/../../../../.." || exit 1
for r in 1 2 3; do
  for arm in base cf; do
    [ $r = 2 ] && { [ $arm = base ] && arm=cf || arm=base; }
    READER_BIN=/tmp/reader_$arm bash docs/results/issue8/session16/token_record_ab/run.sh $r $arm
  done
done
