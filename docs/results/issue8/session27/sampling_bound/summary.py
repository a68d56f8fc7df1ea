#!/usr/bin/env python3
"""Sampling against its own copy-oracle bound: per set, READER's median speedup, the bound
from that run's AR text (prompt + output / + datastore) and READER's share of it, greedy and
T = 0.8 (median over seeds). usage: summary.py DIR (holding greedy/ 1/ 2/ 3/)"""
import json, statistics, sys
root = sys.argv[1]
def rows(run):
    d = json.load(open(f"{root}/{run}/bench.json"))
    return {s["set"]: s for s in d["summary"] if s["method"] == "reader"}, d["runs"]
greedy, greedy_runs = rows("greedy")
seeds = [rows(s) for s in ("1", "2", "3")]
ident = sum(r["identical_to_ar"] for _, runs in seeds for r in runs if r["method"] == "reader")
total = sum(1 for _, runs in seeds for r in runs if r["method"] == "reader")
print(f"sampled READER runs identical to AR: {ident}/{total}\n")
print("| set | greedy speedup | greedy bound p+o / +ds | greedy share | sampled speedup (median) | sampled bound p+o / +ds (median) | sampled share (median) | sampled/greedy speedup | sampled/greedy bound |")
print("|---|---|---|---|---|---|---|---|---|")
for name, g in greedy.items():
    sp = statistics.median(s[0][name]["speedup"] for s in seeds)
    b = statistics.median(s[0][name]["bound"] for s in seeds)
    bd = statistics.median(s[0][name]["bound_datastore"] for s in seeds)
    sh = statistics.median(s[0][name]["fraction_of_bound"] for s in seeds)
    print(f"| {name} | {g['speedup']:.2f}x | {g['bound']:.2f}x / {g['bound_datastore']:.2f}x | {g['fraction_of_bound']:.0%} "
          f"| {sp:.2f}x | {b:.2f}x / {bd:.2f}x | {sh:.0%} | {sp / g['speedup']:.0%} | {b / g['bound']:.0%} |")
