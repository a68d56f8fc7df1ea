#!/bin/bash
# Builds session 38's attention harness for two versions of the patch (make_kernels.py) and runs
# the bitwise check and the timings.
#   run.sh OLD_PATCH NEW_PATCH OUT_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
old=${1:?usage: run.sh OLD_PATCH NEW_PATCH OUT_DIR}; new=${2:?}; out=${3:?}
python3 "$here/make_kernels.py" "$old" "$new" "$out"
for p in kcheck kbench; do g++ -std=c++20 -O3 -march=native -pthread -I"$out" "$out/$p.cpp" -o "$out/$p"; done
"$out/kcheck"
for n in 1 2 4 8 16; do VIS=308 "$out/kbench" $n 512 200; done
for n in 1 4 8 16; do "$out/kbench" $n 2048 40; done
