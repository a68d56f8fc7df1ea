#!/bin/bash
# usage: run.sh ROUND — flash attention (this build's default, setup's profile) against
# --no-flash-attn (with a profile tuned that way, nofa_profile.json), on the decision slices
# (each set's items 20-27, session 16's loop), order alternating by round. Runs land in
# /tmp/ab/r<ROUND>_{fa,nofa}.
cd /work/main
here=docs/results/issue8/session22/fa_ab
loop=docs/results/issue8/session16/token_record_ab/run.sh
fa() { BENCH_ARGS="--profile $here/fa_profile.json" bash $loop "$1" fa22; }
nofa() { BENCH_ARGS="--no-flash-attn --profile $here/nofa_profile.json" bash $loop "$1" nofa22; }
mkdir -p /tmp/ab
if (( $1 % 2 )); then fa "$1"; nofa "$1"; else nofa "$1"; fa "$1"; fi
