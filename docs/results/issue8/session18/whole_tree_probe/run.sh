#!/bin/bash
# One round on the decision slices, session 17's build: the shipped shape (base), whole trees
# from a bushier speculator template (tree.json, not bitwise: "Losslessness and rounding"), and
# the same template verified as a single path (chain.json). Outputs /tmp/ab/r1_<variant>.
cd /work/main
loop=docs/results/issue8/session16/token_record_ab/run.sh
here=docs/results/issue8/session18/whole_tree_probe
$loop 1 base
for v in tree chain; do BENCH_ARGS="--tree $here/$v.json" $loop 1 $v; done
