#!/bin/bash
# --parallel 8 vs 32 (the new default), 8 concurrent clients x 3 requests, alternated.
cd "$(dirname "$0")/../../../.."
OUT=${1:-bench-results/parallel_default}; mkdir -p $OUT; : > $OUT/serve.jsonl
PORT=18181
for r in 1 2; do
 for p in 8 32; do
  build/bin/reader serve --port $PORT --parallel $p --ctx 2048 > $OUT/p$p.$r.log 2>&1 &
  pid=$!
  for _ in $(seq 300); do curl -sf http://127.0.0.1:$PORT/health >/dev/null 2>&1 && break; sleep 0.2; done
  .venv/bin/python scripts/serve_bench.py --url http://127.0.0.1:$PORT --clients 8 --requests 3 -n 128 --label par$p --out $OUT/serve.jsonl > /dev/null 2>&1
  .venv/bin/python scripts/serve_bench.py --url http://127.0.0.1:$PORT --clients 2 --requests 4 -n 128 --label par${p}_c2 --out $OUT/serve.jsonl > /dev/null 2>&1
  kill -TERM $pid; wait $pid
 done
done
echo done > $OUT/done
