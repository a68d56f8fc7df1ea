#!/usr/bin/env python3
"""Summarization's report prompts, priced (one fixed cost curve, as priced.py) and timed
(READER / AR tokens/s, median of the runs), per session, slowest first. Each entry: prompt
tokens: priced / timed.
usage: slow_prompts.py [LABEL=REPORT_PREFIX ...]   (runs REPORT_PREFIX1..3; default, from this
folder: session 27 against session 28; session 29's: run from session29/ with
"session 28=../session28/report_" "session 29=report_")"""
import json, os, statistics, sys
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../session21/step_price"))
from price import c_of, curve_at

here = os.path.dirname(os.path.abspath(__file__))
profile = json.load(open(os.path.join(here, "profiles/shipped_session27.json")))
arms = [a.split("=", 1) for a in sys.argv[1:]] or [("session 27", "../../session27/report_"),
                                                    ("session 28", "../report_")]
for tag, prefix in arms:
    dirs = [f"{prefix}{i}" for i in (1, 2, 3)]
    per = {}
    for d in dirs:
        runs = json.load(open(d + "/bench.json"))["runs"]
        ar = {(r["set"], r["id"]): r for r in runs if r["method"] == "ar"}
        for r in runs:
            if r["method"] != "reader" or r["set"] != "summarization":
                continue
            a = ar[(r["set"], r["id"])]
            curve = curve_at(profile, r["prompt_tokens"])
            priced = r["generated_tokens"] / sum(k * c_of(curve, n) for n, k in enumerate(r["verified_histogram"]) if n > 0)
            timed = (r["generated_tokens"] / r["decode_ms"]) / (a["generated_tokens"] / a["decode_ms"])
            per.setdefault(r["id"], [priced, [], r["prompt_tokens"]])[1].append(timed)
    rows = sorted(per.values(), key=lambda v: statistics.median(v[1]))
    print(tag + ": " + "  ".join(f"{p}: {q:.2f} / {statistics.median(t):.2f}" for q, t, p in rows))
