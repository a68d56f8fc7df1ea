#!/usr/bin/env python3
"""Attention-prefetch A/B: per arm, set and round, summed decode ms of AR, READER and
llama-lookup (and llama.cpp's AR); READER/AR and lookup/llama-AR speedups, medians over rounds.
sum.py DIR"""
import glob, gzip, json, os, statistics, sys, math
from collections import defaultdict
t = defaultdict(float); ident = defaultdict(lambda: [0, 0])
arms, rounds, sets = [], set(), []
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*_*", "bench.json*"))):
    arm, rnd = os.path.basename(os.path.dirname(path)).rsplit("_", 1)
    if arm not in arms: arms.append(arm)
    rounds.add(rnd)
    for r in json.load(gzip.open(path) if path.endswith(".gz") else open(path))["runs"]:
        if r["set"] == "warm-up": continue
        if r["set"] not in sets: sets.append(r["set"])
        t[(arm, rnd, r["set"], r["method"])] += r["decode_ms"]
        if r["method"] != "ar":
            i = ident[(arm, r["method"])]; i[0] += bool(r.get("identical_to_ar")); i[1] += 1
med = lambda xs: statistics.median(xs) if xs else float("nan")
print("| set | " + " | ".join(f"{a} AR ms | {a} reader | {a} lookup" for a in arms) + " |")
print("|---|" + "---|---|---|" * len(arms))
gm = defaultdict(list)
for s in sets:
    cells = []
    for a in arms:
        R = sorted(rounds)
        ar = med([t[(a, r, s, "ar")] for r in R])
        rd = med([t[(a, r, s, "ar")] / t[(a, r, s, "reader")] for r in R if t[(a, r, s, "reader")]])
        lk = med([t[(a, r, s, "llama:ar")] / t[(a, r, s, "llama-lookup")] for r in R if t[(a, r, s, "llama-lookup")]])
        gm[(a, "r")].append(rd); gm[(a, "l")].append(lk)
        cells += [f"{ar:.0f}", f"{rd:.3f}", f"{lk:.3f}"]
    print(f"| {s} | " + " | ".join(cells) + " |")
g = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
print("| geomean | " + " | ".join(f" | {g(gm[(a,'r')]):.3f} | {g(gm[(a,'l')]):.3f}" for a in arms) + " |")
print("identical to AR:", {f"{a} {m}": f"{v[0]}/{v[1]}" for (a, m), v in ident.items()})
