#!/bin/bash
# The third A/B (ab3): run.sh greedy only, rounds 4-6, the shipped profile (base) against the
# same with the refiners (ref), one binary (/tmp/reader_new, this change), the arms' order
# swapped in round 5. Output in /tmp/ab/r<round>_<arm>.
ARMS="base ref" BIN_BASE=/tmp/reader_new BIN_REF=/tmp/reader_new \
  PROFILE_BASE=/tmp/prof/base.json PROFILE_REF=/tmp/prof/refined.json \
  ROUNDS="4 5 6" SWAP_ROUND=5 SAMPLED=0 bash "$(dirname "$0")/run.sh"
