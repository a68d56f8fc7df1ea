#!/bin/bash
# One server of a pair: starts reader serve with READER_TRACE_BATCH=1 (engine_trace.diff applied),
# sends serve_bench.py --clients CLIENTS --requests ${REQS:-4} --offset 4, prints the engine counters.
# Pairs in session 19: pair.sh r8_N 8; pair.sh a8_N 8 --method ar (and 32 clients once).
# steps.py /tmp/serve_r8.log /tmp/serve_a8.log: per step kind, predicted vs measured cost and alpha.
# usage: tr.sh LABEL CLIENTS [serve args]
cd /work/main
label=$1; clients=$2; shift 2
PORT=18091
READER_TRACE_BATCH=1 build/bin/reader serve --port $PORT --parallel 32 --ctx 2048 --threads 2 "$@" > /tmp/serve_$label.log 2>&1 &
pid=$!
for _ in $(seq 600); do curl -sf http://127.0.0.1:$PORT/health > /dev/null 2>&1 && break; sleep 0.2; done
.venv/bin/python scripts/serve_bench.py --url http://127.0.0.1:$PORT -n 128 --label $label --out /tmp/tr_serve.jsonl --clients $clients --requests ${REQS:-4} --offset 4 > /dev/null 2>&1
curl -sf http://127.0.0.1:$PORT/metrics | grep -E "^reader_(steps|drafted_tokens|accepted_tokens|decode_seconds)_total" | tr '\n' ' '; echo
kill -TERM $pid; wait $pid
