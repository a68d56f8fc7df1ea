#!/usr/bin/env python3
"""READER / AR per bench run: geometric mean over sets of the per-prompt median speedup and of
the summed-decode-time speedup, the verified-size histogram's long steps, and losslessness.
usage: ab_summary.py RUN_DIR..."""
import json
import math
import statistics
import sys
from collections import defaultdict

for d in sys.argv[1:]:
    runs = json.load(open(f"{d}/bench.json"))["runs"]
    ar = {(r["set"], r["id"]): r["decode_ms"] for r in runs if r["method"] == "ar"}
    per, tot = defaultdict(list), defaultdict(lambda: [0.0, 0.0])
    long_steps = steps = same = n = 0
    for r in runs:
        if r["method"] != "reader":
            continue
        a = ar[(r["set"], r["id"])]
        per[r["set"]].append(a / r["decode_ms"])
        tot[r["set"]][0] += a
        tot[r["set"]][1] += r["decode_ms"]
        steps += r["steps"]
        long_steps += sum(r["verified_histogram"][9:])
        same += r["identical_to_ar"]
        n += 1
    gm = math.exp(statistics.mean(math.log(statistics.median(v)) for v in per.values()))
    gt = math.exp(statistics.mean(math.log(a / b) for a, b in tot.values()))
    sets = " ".join(f"{s[:6]} {a / b:.2f}" for s, (a, b) in tot.items())
    print(f"{d}: geomean median {gm:.3f} total {gt:.3f} | steps >8 tokens {long_steps}/{steps} | "
          f"identical {same}/{n} | by total: {sets}")
