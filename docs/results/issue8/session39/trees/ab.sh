#!/bin/bash
# Session 39 experiment, as run: arms A/B with /tmp/s39/libhack/libllama.so.0, a libllama built from
# the patched sdist whose find_slot started at cells.used_max_p1() when READER_KV_APPEND was set
# (what scripts/patches/llama.cpp-kv-append.patch now does unconditionally).
# A/B/C of tree shapes, alternated. ab.sh OUT ROUNDS "bench flags"
OUT=$1; R=$2; FLAGS=$3; shift 3; ARMS=("$@")
mkdir -p $OUT
for r in $(seq 1 $R); do
  for arm in "${ARMS[@]}"; do
    READER_KV_APPEND=1 LD_LIBRARY_PATH=/tmp/s39/libhack /tmp/s39/reader_bin bench --methods ar,reader --tree /tmp/s39/tree/$arm.json $FLAGS -o $OUT/${arm}_$r > $OUT/${arm}_$r.log 2>&1
    echo "$arm $r $(date +%T)"
  done
done
