#!/usr/bin/env bash
# label, extra args...: one server, three phases, /metrics after each
set -e
cd /work/main
OUT=/tmp/s14/$1; shift; mkdir -p $OUT
PORT=18090
BIN=${BIN:-build/bin/reader}
$BIN serve --port $PORT --parallel 32 --ctx 2048 --threads 2 "$@" > $OUT/server.log 2>&1 &
pid=$!
for i in $(seq 600); do curl -sf http://127.0.0.1:$PORT/health >/dev/null 2>&1 && break; sleep 0.2; done
B=(.venv/bin/python scripts/serve_bench.py --url http://127.0.0.1:$PORT -n 128 --label x --out $OUT/serve.jsonl)
if [ -z "$ONLY32" ]; then
"${B[@]}" --clients 1 --requests 4 --offset 0 > $OUT/p1.txt; curl -s http://127.0.0.1:$PORT/metrics > $OUT/m1.txt
"${B[@]}" --clients 8 --requests 4 --offset 4 > $OUT/p8.txt; curl -s http://127.0.0.1:$PORT/metrics > $OUT/m8.txt
fi
"${B[@]}" --clients 32 --requests 1 --offset 36 > $OUT/p32.txt; curl -s http://127.0.0.1:$PORT/metrics > $OUT/m32.txt
kill -TERM $pid; wait $pid || true
