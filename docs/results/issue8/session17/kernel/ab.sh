#!/bin/bash
# An older kernel library against the shipped one, alternated three times.
# usage: ab.sh [OLD_LIBDIR [MODEL]]   (default /tmp/k/base: tinyBLAS as shipped before
# session 17; session 18 passed session 17's library; MODEL: a GGUF other than the default)
cd /work/main
OLD=${1:-/tmp/k/base}
M=(${2:+--model "$2"})
NEW=/work/main/.venv/lib/python3.11/site-packages/lib
for r in 1 2 3; do for d in $OLD $NEW; do
  n=$([ $d = $NEW ] && echo new || echo old)
  printf "%s cost_ms " $n
  LD_LIBRARY_PATH=$d flock /tmp/model.lock ./build/bin/reader bench --cost-curve "${M[@]}" --repeats 7 2>&1 | grep -E "^\| [0-9]" | awk -F'|' '{printf "%s ", $3}'
  printf " ar "
  LD_LIBRARY_PATH=$d flock /tmp/model.lock ./build/bin/reader generate --method ar "${M[@]}" -p "Write a long story about a lighthouse keeper and his cat." -n 256 2>&1 >/dev/null | grep -o "[0-9.]* tok/s"
done; done
