#!/bin/bash
# Slot choice: caching-least ties (old) vs running-neighbour ties (new), --parallel 32, alternated.
cd "$(dirname "$0")/../../../.."
OUT=${1:-bench-results/slot_choice}; mkdir -p $OUT; : > $OUT/serve.jsonl
PORT=18182
for r in 1 2; do
 for v in base adjacent; do
  /tmp/ab/reader_$v serve -m /work/main/models/SmolLM2-135M-Instruct.Q8_0.gguf --port $PORT --parallel 32 --ctx 2048 > $OUT/$v.$r.log 2>&1 &
  pid=$!
  for _ in $(seq 300); do curl -sf http://127.0.0.1:$PORT/health >/dev/null 2>&1 && break; sleep 0.2; done
  for c in "8 3" "2 6" "4 4"; do set -- $c
   .venv/bin/python scripts/serve_bench.py --url http://127.0.0.1:$PORT --clients $1 --requests $2 -n 128 --label ${v}_c$1 --out $OUT/serve.jsonl > /dev/null 2>&1
  done
  kill -TERM $pid; wait $pid
 done
done
echo done > $OUT/done
