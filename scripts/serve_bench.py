#!/usr/bin/env python3
"""Load an OpenAI-compatible server (reader serve, llama-server) with concurrent clients.

Each client sends its prompts one after another, streamed, greedy; the script reports
time to first token (TTFT), tokens/s per request (completion tokens over the request's
whole time), and total generated tokens/s over the run's wall time.

    scripts/serve_bench.py --url http://127.0.0.1:8080 --clients 8 --requests 2 -n 128
    scripts/serve_bench.py --url ... --turn2   # TTFT of a conversation's second turn

Prompts: MT-Bench first turns and GSM8K questions from the shared data (--data), the same
items `reader bench` reports on. --turn2 sends a RAG passage question, then a follow-up in
the same conversation: the follow-up's prompt begins with the whole first exchange, which
a prompt cache can reuse.
"""
import argparse
import http.client
import json
import os
import statistics
import sys
import threading
import time
import urllib.parse


def load_prompts(data, n, offset=0):
    """n prompts after the first `offset`: MT-Bench first turns and GSM8K questions in turn."""
    n += offset
    out = []
    with open(os.path.join(data, "mt_bench", "question.jsonl")) as f:
        mt = [json.loads(l)["turns"][0] for l in f if l.strip()]
    with open(os.path.join(data, "gsm8k", "test.jsonl")) as f:
        gsm = [json.loads(l)["question"] + "\nSolve it step by step." for l in f if l.strip()]
    for a, b in zip(mt, gsm):
        out += [a, b]
        if len(out) >= n:
            break
    return out[offset:n]


def rag_items(data, n):
    items = []
    with open(os.path.join(data, "rag", "clapnq_dev_answerable.jsonl")) as f:
        for line in f:
            r = json.loads(line)
            passage = " ".join(p.get("text", "") for p in r.get("passages", []))
            items.append((passage, r.get("input", "")))
            if len(items) >= n:
                break
    return items


def stream_request(url, messages, max_tokens, extra=None):
    """One streamed chat request; returns (ttft_s, total_s, completion_tokens, text)."""
    u = urllib.parse.urlparse(url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=600)
    body = {"messages": messages, "max_tokens": max_tokens, "temperature": 0, "stream": True,
            "stream_options": {"include_usage": True}, **(extra or {})}
    t0 = time.perf_counter()
    conn.request("POST", "/v1/chat/completions", json.dumps(body),
                 {"Content-Type": "application/json"})
    resp = conn.getresponse()
    if resp.status != 200:
        raise RuntimeError("HTTP %d: %s" % (resp.status, resp.read()[:200]))
    ttft, text, tokens, pieces = None, "", None, 0
    buf = b""
    while True:
        chunk = resp.read1(65536) if hasattr(resp, "read1") else resp.read(1)
        if not chunk:
            break
        buf += chunk
        while b"\n\n" in buf:
            event, buf = buf.split(b"\n\n", 1)
            line = event.decode(errors="replace").strip()
            if not line.startswith("data: ") or line == "data: [DONE]":
                continue
            ev = json.loads(line[6:])
            if ev.get("usage"):
                tokens = ev["usage"]["completion_tokens"]
            for ch in ev.get("choices", []):
                c = (ch.get("delta") or {}).get("content")
                if c:
                    if ttft is None:
                        ttft = time.perf_counter() - t0
                    text += c
                    pieces += 1
    total = time.perf_counter() - t0
    conn.close()
    return ttft if ttft is not None else total, total, tokens if tokens is not None else pieces, text


def run_load(args):
    prompts = load_prompts(args.data, args.clients * args.requests, args.offset)
    if len(prompts) < args.clients * args.requests:
        sys.exit("serve_bench: only %d prompts after --offset %d" % (len(prompts), args.offset))
    results, lock = [], threading.Lock()

    def client(c):
        for k in range(args.requests):
            p = prompts[(c * args.requests + k) % len(prompts)]
            r = stream_request(args.url, [{"role": "user", "content": p}], args.max_tokens)
            with lock:
                results.append(r)

    t0 = time.perf_counter()
    threads = [threading.Thread(target=client, args=(c,)) for c in range(args.clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    tokens = sum(r[2] for r in results)
    return {"label": args.label, "clients": args.clients, "requests": len(results),
            "ttft_median_s": statistics.median(r[0] for r in results),
            "per_request_tok_s_median": statistics.median(r[2] / r[1] for r in results),
            "total_tok_s": tokens / wall, "tokens": tokens, "wall_s": wall,
            "texts": [r[3] for r in results]}


def run_turn2(args):
    rows = []
    for passage, question in rag_items(args.data, args.requests):
        first = [{"role": "user", "content": "Answer the question using the passage.\n\nPassage: "
                  + passage + "\n\nQuestion: " + question}]
        ttft1, _, _, answer = stream_request(args.url, first, args.max_tokens)
        second = first + [{"role": "assistant", "content": answer},
                          {"role": "user", "content": "Now answer again in one short sentence."}]
        ttft2, _, _, _ = stream_request(args.url, second, args.max_tokens)
        rows.append((ttft1, ttft2))
    return {"label": args.label, "turns": len(rows),
            "ttft_turn1_median_s": statistics.median(r[0] for r in rows),
            "ttft_turn2_median_s": statistics.median(r[1] for r in rows)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--url", required=True)
    ap.add_argument("--clients", type=int, default=1)
    ap.add_argument("--requests", type=int, default=2, help="requests per client (or turns)")
    ap.add_argument("--offset", type=int, default=0,
                    help="skip the first K prompts (phases of one server run send disjoint prompts, "
                    "so no server answers a prompt it has seen)")
    ap.add_argument("-n", "--max-tokens", type=int, default=128)
    ap.add_argument("--label", default="")
    ap.add_argument("--turn2", action="store_true", help="measure a second turn's TTFT")
    ap.add_argument("--data", default=os.environ.get(
        "READER_DATA_DIR", os.path.join(os.path.dirname(__file__), "..", "..", "shared", "data")))
    ap.add_argument("--out", help="append the result as one JSON line to this file")
    args = ap.parse_args()
    res = run_turn2(args) if args.turn2 else run_load(args)
    short = {k: v for k, v in res.items() if k != "texts"}
    print(json.dumps(short))
    if args.out:
        with open(args.out, "a") as f:
            f.write(json.dumps(res) + "\n")


if __name__ == "__main__":
    sys.exit(main())
