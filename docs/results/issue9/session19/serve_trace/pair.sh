#!/bin/bash
# One server of a pair, through session 18's serve_check8/run.sh: reader serve on the shipped
# library and profile with READER_TRACE_BATCH=1 (engine_trace.diff applied), serve_bench.py
# with CLIENTS clients x ${REQS:-4} requests into /tmp/tr_serve.jsonl, then the engine counters.
# Pairs in session 19: pair.sh r8_N 8; pair.sh a8_N 8 --method ar (and 32 clients once).
# steps.py /tmp/serve_r8.log /tmp/serve_a8.log: per step kind, predicted vs measured cost and alpha.
# usage: pair.sh LABEL CLIENTS [serve args]
cd /work/main
label=$1; clients=$2; shift 2
CLIENTS=$clients REQUESTS=${REQS:-4} OUT=/tmp/tr_serve.jsonl READER_TRACE_BATCH=1 \
  bash docs/results/issue9/session18/serve_check8/run.sh "$label" \
  .venv/lib/python3.11/site-packages/lib models/SmolLM2-135M-Instruct.Q8_0.profile.json "$@"
