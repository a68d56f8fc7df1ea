#!/bin/bash
cd /work/main
PORT=18090
OUT=/tmp/s12/serve_ab; mkdir -p $OUT; : > $OUT/serve.jsonl
wait_up() { for _ in $(seq 600); do curl -sf "http://127.0.0.1:$PORT/health" > /dev/null 2>&1 && return 0; sleep 0.2; done; return 1; }
run() { # label bin extra
  local label=$1 bin=$2; shift 2
  $bin serve --port $PORT --parallel 32 --ctx 2048 --threads 2 "$@" > $OUT/$label.log 2>&1 &
  local pid=$!; wait_up
  for c in 8 4; do .venv/bin/python scripts/serve_bench.py --url http://127.0.0.1:$PORT --clients $c --requests 2 -n 128 --label $label --out $OUT/serve.jsonl > /dev/null; done
  kill -TERM $pid; wait $pid
}
for r in 1 2; do
  run old /tmp/ab/reader; run new /tmp/s12/reader; run ar /tmp/s12/reader --method ar
  run ar /tmp/s12/reader --method ar; run new /tmp/s12/reader; run old /tmp/ab/reader
done
echo done
