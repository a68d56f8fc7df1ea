#!/bin/bash
# usage: run.sh LABEL LIBDIR PROFILE [extra serve args]  -> 8 clients x 4 requests, total tok/s
# (one phase of scripts/serve_compare.sh, for one server on a chosen library and profile)
# CLIENTS, REQUESTS and OUT (the serve_bench.py JSONL) override 8, 4 and this folder's
# serve.jsonl (session 19's serve_trace/pair.sh); the environment reaches the server.
cd /work/main
label=$1; lib=$2; prof=$3; shift 3
PORT=18090
LD_LIBRARY_PATH=$lib build/bin/reader serve --port $PORT --parallel 32 --ctx 2048 --threads 2 --profile $prof "$@" > /tmp/serve_$label.log 2>&1 &
pid=$!
for _ in $(seq 600); do curl -sf http://127.0.0.1:$PORT/health > /dev/null 2>&1 && break; sleep 0.2; done
.venv/bin/python scripts/serve_bench.py --url http://127.0.0.1:$PORT -n 128 --label $label --out ${OUT:-docs/results/issue9/session18/serve_check8/serve.jsonl} --clients ${CLIENTS:-8} --requests ${REQUESTS:-4} --offset 4 > /dev/null 2>&1
curl -sf http://127.0.0.1:$PORT/metrics | grep -E "^reader_(steps|drafted_tokens|accepted_tokens|decode_seconds)_total" | tr '\n' ' '; echo
kill -TERM $pid; wait $pid
