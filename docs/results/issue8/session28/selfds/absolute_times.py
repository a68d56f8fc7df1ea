#!/usr/bin/env python3
"""Summed decode times over all rounds of an A/B (seconds), per set: AR and READER in each arm,
and READER's steps. Shows whether a ratio moved because READER changed or because AR's own
time did. usage: absolute_times.py DIR (holding r<N>_a/ and r<N>_b/)"""
import collections, glob, json, sys

tot = {arm: collections.defaultdict(lambda: [0.0, 0.0, 0]) for arm in "ab"}
for d in sorted(glob.glob(f"{sys.argv[1]}/r*_[ab]")):
    for x in json.load(open(f"{d}/bench.json"))["runs"]:
        t = tot[d[-1]][x["set"]]
        if x["method"] == "ar":
            t[0] += x["decode_ms"] / 1e3
        else:
            t[1] += x["decode_ms"] / 1e3
            t[2] += x["steps"]
print("| set | AR a / b (s) | READER a / b (s) | READER b/a | steps a / b | (AR/READER) b over a |")
print("|---|---|---|---|---|---|")
sums = [0.0] * 4
for s in sorted(tot["a"]):
    A, B = tot["a"][s], tot["b"][s]
    sums = [sums[0] + A[0], sums[1] + B[0], sums[2] + A[1], sums[3] + B[1]]
    print(f"| {s} | {A[0]:.1f} / {B[0]:.1f} | {A[1]:.1f} / {B[1]:.1f} | {B[1] / A[1]:.3f} | {A[2]} / {B[2]} | {(B[0] / B[1]) / (A[0] / A[1]):.3f} |")
print(f"| all | {sums[0]:.1f} / {sums[1]:.1f} | {sums[2]:.1f} / {sums[3]:.1f} | {sums[3] / sums[2]:.3f} | | {(sums[1] / sums[3]) / (sums[0] / sums[2]):.3f} |")
