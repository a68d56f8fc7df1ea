#!/bin/bash
# Old kernel (tinyBLAS as shipped before session 17, /tmp/k/base) against the shipped one, alternated.
cd /work/main
NEW=/work/main/.venv/lib/python3.11/site-packages/lib
for r in 1 2 3; do for d in /tmp/k/base $NEW; do
  n=$([ $d = $NEW ] && echo new || echo old)
  printf "%s cost_ms " $n
  LD_LIBRARY_PATH=$d flock /tmp/model.lock ./build/bin/reader bench --cost-curve --repeats 7 2>&1 | grep -E "^\| [0-9]" | awk -F'|' '{printf "%s ", $3}'
  printf " ar "
  LD_LIBRARY_PATH=$d flock /tmp/model.lock ./build/bin/reader generate --method ar -p "Write a long story about a lighthouse keeper and his cat." -n 256 2>&1 >/dev/null | grep -o "[0-9.]* tok/s"
done; done
