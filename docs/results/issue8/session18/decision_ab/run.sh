#!/bin/bash
# Session 17's build (its wheel's libggml-cpu.so, unpacked to /tmp/k/w17, and the profile its
# setup tuned) against session 18's (the shipped library and profile), on the decision slices
# (--prompt-offset 20 --prompts 8), three alternated rounds. Outputs /tmp/ab/r<round>_{old,new}.
cd /work/main
loop=docs/results/issue8/session16/token_record_ab/run.sh
for r in 1 2 3; do
  LD_LIBRARY_PATH=/tmp/k/w17 BENCH_ARGS="--profile docs/results/issue8/session17/profile.json" $loop $r old
  $loop $r new
done
