#!/bin/bash
# Alternated rounds of two profiles, one binary: ab.sh OUT ROUNDS "bench flags" ARM... (ARM.json beside this script)
here=$(cd "$(dirname "$0")" && pwd); OUT=$1; R=$2; FLAGS=$3; shift 3
mkdir -p "$OUT"
for r in $(seq 1 "$R"); do
  for arm in "$@"; do
    # shellcheck disable=SC2086
    ${BIN:-build/bin/reader} bench --methods ar,reader --profile "$here/$arm.json" $FLAGS -o "$OUT/${arm}_$r" > "$OUT/${arm}_$r.log" 2>&1
    echo "$arm $r $(date +%T)"
  done
done
