#!/usr/bin/env bash
# Serving benchmark: reader serve (READER, and AR) against llama.cpp's llama-server (n-gram
# speculation, and none) built from the same pinned sources (scripts/build_peers.sh), each
# loaded by scripts/serve_bench.py with 1, 8 and 32 concurrent clients, greedy, one server
# at a time. ROUNDS rounds (default 3), the servers' order rotated each round, a fresh server
# process per round: one server start can run 30% off the next on a shared VM, so the
# summary takes medians over rounds. Each phase of a run sends prompts the server has not
# seen (READER remembers earlier answers; a repeated prompt would be a copy, not a load).
# Results: one JSON line per (server, clients, round) in OUT/serve.jsonl, then a table
# (OUT/serve.md) and a chart (OUT/serve.svg) by scripts/serve_plot.py.
#   [ROUNDS=3] scripts/serve_compare.sh [OUT] [MAX_TOKENS]
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
OUT=${1:-bench-results/serve}
N=${2:-128}
ROUNDS=${ROUNDS:-3}
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

run_server() {  # label, round, command...
  local label=$1 round=$2; shift 2
  "$@" > "$OUT/$label.rep$round.log" 2>&1 &
  local pid=$!
  wait_up
  local bench=("$PY" scripts/serve_bench.py --url "http://127.0.0.1:$PORT" -n "$N"
               --label "$label-rep$round" --out "$OUT/serve.jsonl")
  # Prompts 0-3, 4-35 and 36-67: every client keeps its slot busy with several requests in a
  # row (8 clients), or the batch is full at once (32).
  # After each phase, the server's counters where it has them (reader serve's /metrics: steps,
  # drafted tokens, decode and draft seconds), to tell per-phase work from machine noise.
  local metrics="curl -sf http://127.0.0.1:$PORT/metrics"
  "${bench[@]}" --clients 1 --requests 4 --offset 0
  $metrics > "$OUT/$label.rep$round.metrics1.txt" || rm -f "$OUT/$label.rep$round.metrics1.txt"
  "${bench[@]}" --clients 8 --requests 4 --offset 4
  $metrics > "$OUT/$label.rep$round.metrics8.txt" || rm -f "$OUT/$label.rep$round.metrics8.txt"
  "${bench[@]}" --clients 32 --requests 1 --offset 36
  $metrics > "$OUT/$label.rep$round.metrics32.txt" || rm -f "$OUT/$label.rep$round.metrics32.txt"
  kill -TERM "$pid"; wait "$pid" || true
}

# One attention setting for both servers, given to each explicitly: on with AVX-512, where
# reader turns it on by default (ModelOptions::flash_attn).
FA=$(grep -qw avx512dq /proc/cpuinfo && echo on || echo off)
READER=(build/bin/reader serve --port "$PORT" --parallel 32 --ctx 2048 --threads "$THREADS"
        "$([ "$FA" = on ] && echo --flash-attn || echo --no-flash-attn)")
# Weights likewise: repacked where reader repacks them by default (AVX512-VNNI, no AMX).
REPACK=$(grep -qw avx512_vnni /proc/cpuinfo && ! grep -qw amx_int8 /proc/cpuinfo && echo --repack || echo --no-repack)
READER+=("$REPACK")
LLAMA=("$LLAMA_SERVER" -m "$MODEL" --port "$PORT" -np 32 -c $((32 * 2048)) -t "$THREADS" -fa "$FA" "$REPACK")
SERVERS=(reader reader-ar llama-server llama-server-ngram-simple llama-server-ngram-mod)
start() {  # label, round
  case $1 in
    reader) run_server "$1" "$2" "${READER[@]}" ;;
    reader-ar) run_server "$1" "$2" "${READER[@]}" --method ar ;;
    llama-server) run_server "$1" "$2" "${LLAMA[@]}" ;;
    llama-server-ngram-simple) run_server "$1" "$2" "${LLAMA[@]}" --spec-type ngram-simple \
      --spec-ngram-simple-size-n 3 --spec-ngram-simple-size-m 8 ;;
    llama-server-ngram-mod) run_server "$1" "$2" "${LLAMA[@]}" --spec-type ngram-mod ;;
  esac
}
for round in $(seq "$ROUNDS"); do
  for k in "${!SERVERS[@]}"; do
    start "${SERVERS[$(((k + round - 1) % ${#SERVERS[@]}))]}" "$round"
  done
done
"$PY" scripts/serve_plot.py "$OUT/serve.jsonl" -o "$OUT/serve.svg" --table "$OUT/serve.md"
echo "wrote $OUT/serve.{jsonl,md,svg}"
