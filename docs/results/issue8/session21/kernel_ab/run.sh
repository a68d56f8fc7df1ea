#!/bin/bash
# Session 21: session 18's Q8_0 kernel against the 16-row kernel on the decision slices,
# each build with the profile its own setup tuned, the order alternating by round.
# usage: run.sh ROUND   (OLD_LIB: the old libraries, default /tmp/k/old, copied from the
# previous wheel's .venv lib; OLD_PROFILE: its profile, default /tmp/k/old_profile.json)
# Outputs /tmp/ab/r<ROUND>_old21 and /tmp/ab/r<ROUND>_new21 through session 16's loop.
cd /work/main
loop=docs/results/issue8/session16/token_record_ab/run.sh
old() { LD_LIBRARY_PATH=${OLD_LIB:-/tmp/k/old} BENCH_ARGS="--profile ${OLD_PROFILE:-/tmp/k/old_profile.json}" bash $loop "$1" old21; }
new() { bash $loop "$1" new21; }
if [ $(($1 % 2)) = 1 ]; then old "$1"; new "$1"; else new "$1"; old "$1"; fi  # order alternates by round
