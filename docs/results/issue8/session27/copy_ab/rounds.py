#!/usr/bin/env python3
"""Per round of copy_ab.sh: READER / AR by summed decode time per set, geometric mean over the
sets, for arm a (no copy path) and arm b (copy path), and b over a.
usage: rounds.py DIR (holding r<N>_a/ and r<N>_b/)"""
import collections, glob, json, math, os, re, statistics, sys

def per_set(d):
    runs = json.load(open(f"{d}/bench.json"))["runs"]
    ar = {(r["set"], r["id"]): r["decode_ms"] for r in runs if r["method"] == "ar"}
    tot = collections.defaultdict(lambda: [0.0, 0.0])
    same = n = 0
    for r in runs:
        if r["method"] != "reader": continue
        tot[r["set"]][0] += ar[(r["set"], r["id"])]; tot[r["set"]][1] += r["decode_ms"]
        same += r["identical_to_ar"]; n += 1
    return {s: a / b for s, (a, b) in tot.items()}, same, n

root = sys.argv[1]
rounds = sorted({int(m.group(1)) for p in glob.glob(f"{root}/r*_a") if (m := re.search(r"r(\d+)_a$", p))})
by_set = collections.defaultdict(lambda: {"a": [], "b": []})
print("| round | a: READER/AR (geomean of sets) | b | b/a |\n|---|---|---|---|")
ratios, ident = [], [0, 0]
for r in rounds:
    g = {}
    for arm in "ab":
        d = f"{root}/r{r}_{arm}"
        if not os.path.exists(f"{d}/bench.json"): break
        s, same, n = per_set(d)
        ident[0] += same; ident[1] += n
        for k, v in s.items(): by_set[k][arm].append(v)
        g[arm] = math.exp(statistics.mean(math.log(v) for v in s.values()))
    if len(g) == 2:
        ratios.append(g["b"] / g["a"])
        print(f"| {r} | {g['a']:.3f} | {g['b']:.3f} | {g['b'] / g['a']:.3f} |")
print(f"\nmedian b/a over rounds: {statistics.median(ratios):.3f}; READER runs identical to AR: {ident[0]}/{ident[1]}\n")
print("| set | a (median over rounds) | b | b/a |\n|---|---|---|---|")
for k, v in sorted(by_set.items()):
    a, b = statistics.median(v["a"]), statistics.median(v["b"])
    print(f"| {k} | {a:.2f} | {b:.2f} | {b / a:.3f} |")
