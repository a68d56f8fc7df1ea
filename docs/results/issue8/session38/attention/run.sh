#!/bin/bash
# Builds the attention harness (kernels.h from the patches) and runs the check and the timings.
#   run.sh OUT_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd); out=${1:?usage: run.sh OUT_DIR}; mkdir -p "$out"
python3 "$here/make_kernels.py" "$out/kernels.h"
for p in kcheck kbench; do g++ -std=c++20 -O3 -march=native -pthread -I"$out" "$here/$p.cpp" -o "$out/$p"; done
"$out/kcheck"
for n in 1 2 4 8 16; do VIS=308 "$out/kbench" $n 512 200; done
for n in 1 4 8; do "$out/kbench" $n 2048 40; done
