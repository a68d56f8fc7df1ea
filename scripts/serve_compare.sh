#!/usr/bin/env bash
# Serving benchmark: reader serve (READER, and AR) against llama.cpp's llama-server (n-gram
# speculation, and none) built from the same pinned sources (scripts/build_peers.sh), each
# loaded by scripts/serve_bench.py with 1, 8 and 32 concurrent clients, greedy, one server
# at a time. Results: one JSON line per (server, clients) in OUT/serve.jsonl.
#   scripts/serve_compare.sh [OUT] [MAX_TOKENS]
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
OUT=${1:-bench-results/serve}
N=${2:-128}
MODEL=models/SmolLM2-135M-Instruct.Q8_0.gguf
LLAMA_SERVER=${LLAMA_SERVER:-build/peers/llama-server}
PY=.venv/bin/python
mkdir -p "$OUT"
: > "$OUT/serve.jsonl"
PORT=18080
THREADS=$(nproc)

wait_up() {
  for _ in $(seq 600); do
    curl -sf "http://127.0.0.1:$PORT/health" > /dev/null 2>&1 && return 0
    sleep 0.2
  done
  echo "serve_compare: server on $PORT did not come up" >&2; return 1
}

run_server() {  # label, command...
  local label=$1; shift
  "$@" > "$OUT/$label.log" 2>&1 &
  local pid=$!
  wait_up
  "$PY" scripts/serve_bench.py --url "http://127.0.0.1:$PORT" --clients 1 --requests 4 -n "$N" --label "$label" --out "$OUT/serve.jsonl"
  "$PY" scripts/serve_bench.py --url "http://127.0.0.1:$PORT" --clients 8 --requests 1 -n "$N" --label "$label" --out "$OUT/serve.jsonl"
  "$PY" scripts/serve_bench.py --url "http://127.0.0.1:$PORT" --clients 32 --requests 1 -n "$N" --label "$label" --out "$OUT/serve.jsonl"
  kill -TERM "$pid"; wait "$pid" || true
}

READER=(build/bin/reader serve --port "$PORT" --parallel 32 --ctx 2048 --threads "$THREADS")
LLAMA=("$LLAMA_SERVER" -m "$MODEL" --port "$PORT" -np 32 -c $((32 * 2048)) -t "$THREADS" -fa off --no-repack)
run_server reader "${READER[@]}"
run_server reader-ar "${READER[@]}" --method ar
run_server llama-server "${LLAMA[@]}"
run_server llama-server-ngram-simple "${LLAMA[@]}" --spec-type ngram-simple --spec-ngram-simple-size-n 3 --spec-ngram-simple-size-m 8
run_server llama-server-ngram-mod "${LLAMA[@]}" --spec-type ngram-mod
echo "wrote $OUT/serve.jsonl"
