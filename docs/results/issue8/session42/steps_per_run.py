#!/usr/bin/env python3
"""Per bench run: READER's tokens and drafted tokens a step, AR's mean ms a token and READER's
mean ms a step, overall and by set (the figures of this README's sections 3 and 4).
steps_per_run.py RUN_DIR...   (RUN_DIR/bench.json or bench.json.gz)"""
import os, sys
from collections import defaultdict
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from bench_io import load_bench
for d in sys.argv[1:]:
    runs = load_bench(d)["runs"]
    tok = steps = drafted = ar_ms = ar_tok = reader_ms = 0; by_set = defaultdict(lambda: [0, 0, 0])
    for r in runs:
        if r["set"] == "warm-up": continue
        if r["method"] == "reader":
            tok += r["generated_tokens"]; steps += r["steps"]; drafted += r["drafted_tokens"]; reader_ms += r["decode_ms"]
            s = by_set[r["set"]]; s[0] += r["generated_tokens"]; s[1] += r["steps"]; s[2] += r["drafted_tokens"]
        elif r["method"] == "ar":
            ar_ms += r["decode_ms"]; ar_tok += r["generated_tokens"]
    print(d, "tokens/step %.3f drafted/step %.2f AR ms/token %.2f reader ms/step %.2f |" % (
        tok / steps, drafted / steps, ar_ms / ar_tok, reader_ms / steps),
        " ".join("%s %.2f/%.2f" % (s, v[0] / v[1], v[2] / v[1]) for s, v in by_set.items()))
