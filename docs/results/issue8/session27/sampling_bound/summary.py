#!/usr/bin/env python3
"""Sampling against its own copy-oracle bound: per set, READER's median speedup, the bound
from that run's AR text (prompt + output / + datastore) and READER's share of it, greedy and
T = 0.8 (median over seeds). usage: summary.py DIR [--svg OUT.svg] (DIR holds greedy/ 1/ 2/ 3/);
the plot: per set, READER and the bound (p+o), greedy and sampled."""
import json, os, statistics, sys
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

if "--svg" in sys.argv:
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../.."))
    from svg_bars import grouped_bars
    series = ["greedy: reader", "greedy: bound (p+o)", "T=0.8: reader", "T=0.8: bound (p+o)"]
    groups = {name: dict(zip(series, [g["speedup"], g["bound"],
                                      statistics.median(s[0][name]["speedup"] for s in seeds),
                                      statistics.median(s[0][name]["bound"] for s in seeds)]))
              for name, g in greedy.items()}
    grouped_bars(sys.argv[sys.argv.index("--svg") + 1],
                 "READER and the copy-oracle bound of its own texts, greedy and T = 0.8 (medians of seeds 1-3)",
                 groups, series, colours=["#1f77b4", "#aec7e8", "#d62728", "#ff9896"], group=130,
                 legend_step=170)
