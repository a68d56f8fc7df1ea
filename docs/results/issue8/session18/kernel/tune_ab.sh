#!/bin/bash
# The cost curve reader tune measures at 256 cached tokens (n = 1..12, 14, 16, 24, 32), for an
# older kernel library and the shipped one, alternated.  usage: tune_ab.sh OLD_LIBDIR [ROUNDS]
cd /work/main
OLD=$1
NEW=/work/main/.venv/lib/python3.11/site-packages/lib
for r in $(seq 1 "${2:-3}"); do for d in $OLD $NEW; do
  n=$([ $d = $NEW ] && echo new || echo old)
  printf "%s " $n
  LD_LIBRARY_PATH=$d flock /tmp/model.lock ./build/bin/reader tune --cost-only --contexts 256 --repeats 5 -o /tmp/tune_ab_$n.json 2>&1 | grep -E "^\| 256"
done; done
