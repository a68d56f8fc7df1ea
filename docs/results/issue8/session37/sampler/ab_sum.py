#!/usr/bin/env python3
"""The sampler before and after session 37's weights (std::exp, one pass in index order,
against softmax_weights.h), alternated: DIR/r{round}_s{seed}_{old,new}/bench.json, each
`reader bench --methods ar,reader --temp 0.8 --seed S`. Prints, per arm: time per sampled pick
outside the decode (bookkeeping per step, AR), AR's and READER's decode time per token, and
READER / AR by summed decode time per set, median over the runs; identical-to-AR counts.

usage: ab_sum.py DIR
"""
import glob
import json
import os
import statistics
import sys
from collections import defaultdict

d = sys.argv[1] if len(sys.argv) > 1 else sys.exit(__doc__)
arms = defaultdict(lambda: defaultdict(list))
same = defaultdict(lambda: [0, 0])
for path in sorted(glob.glob(os.path.join(d, "r*_s*_*/bench.json"))):
    arm = os.path.basename(os.path.dirname(path)).split("_")[-1]
    runs = json.load(open(path))["runs"]
    per = defaultdict(lambda: defaultdict(lambda: [0.0, 0, 0.0, 0]))  # set -> method -> sums
    for r in runs:
        c = per[r["set"]][r["method"]]
        c[0] += r["decode_ms"]
        c[1] += r["generated_tokens"]
        c[2] += r.get("bookkeeping_ms", 0.0)
        c[3] += r["steps"]
        if r["method"] == "reader":
            same[arm][0] += r["identical_to_ar"]
            same[arm][1] += 1
    ar_ms = sum(p["ar"][0] for p in per.values()) / sum(p["ar"][1] for p in per.values())
    rd_ms = sum(p["reader"][0] for p in per.values()) / sum(p["reader"][1] for p in per.values())
    book = sum(p["ar"][2] for p in per.values()) / sum(p["ar"][3] for p in per.values())
    arms[arm]["AR bookkeeping ms per token"].append(book)
    arms[arm]["AR decode ms per token"].append(ar_ms)
    arms[arm]["READER decode ms per token"].append(rd_ms)
    for s, p in per.items():
        arms[arm][f"{s}: READER / AR"].append(
            (p["ar"][0] / p["ar"][1]) / (p["reader"][0] / p["reader"][1]))
keys = list(next(iter(arms.values())).keys())
print("| | " + " | ".join(f"{a} (median of {len(arms[a][keys[0]])})" for a in sorted(arms)) + " |")
print("|---|" + "---|" * len(arms))
for k in keys:
    print(f"| {k} | " + " | ".join(f"{statistics.median(arms[a][k]):.3f}" for a in sorted(arms)) + " |")
print("identical to AR: " + ", ".join(f"{a} {same[a][0]}/{same[a][1]}" for a in sorted(arms)))
# The two samplers' texts for the same prompt and seed (their weights differ in the last bits).
texts = defaultdict(dict)
for path in glob.glob(os.path.join(d, "r*_s*_*/bench.json")):
    run = os.path.basename(os.path.dirname(path)).rsplit("_", 1)
    for r in json.load(open(path))["runs"]:
        texts[(run[0], r["set"], r["id"], r["method"])][run[1]] = r["text"]
pairs = [t for t in texts.values() if len(t) == 2]
print(f"texts the same under both samplers: {sum(t['old'] == t['new'] for t in pairs)}/{len(pairs)}")
