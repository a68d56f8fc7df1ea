#!/bin/bash
# Session 38's end-to-end A/B: the same reader binary with two builds of libggml-cpu, session
# 22's attention kernel (A) and the new one (B), three alternated rounds of the decision slices
# (items 20-35 of every set, greedy, 128 tokens). LIB_A and LIB_B: folders holding each build's
# libggml-cpu.so.0 (build_lib.sh 1266dc8 LIB_A; build_lib.sh 7bcaf48 LIB_B).
#   run.sh OUT   then   ab_sum.py OUT; step_costs.py OUT
set -euo pipefail
cd "$(dirname "$0")/../../../../.."
cp build/bin/reader /tmp/reader_ab_copy
BIN=/tmp/reader_ab_copy ENV_A="LD_LIBRARY_PATH=${LIB_A:?}" ENV_B="LD_LIBRARY_PATH=${LIB_B:?}" \
  docs/results/issue8/session35/graph_cache/ab_flags.sh single "" "" "${1:?usage: run.sh OUT}" 3
