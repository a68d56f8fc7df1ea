#!/usr/bin/env python3
"""Speedup over AR per set, from several `reader bench` runs, as a table and an SVG bar chart.

  scripts/bench_compare.py LABEL=RUN_DIR[,RUN_DIR...] ... -o OUT_STEM [--method reader]

Each RUN_DIR holds a bench.json. A run's speedup for a set is the ratio of the method's median
tokens/s to AR's in that run (methods were interleaved there); runs under one label (seeds,
repeats) are summarised by the median of their speedups, with the range. No plotting library."""
import argparse
import collections
import json
import statistics

ap = argparse.ArgumentParser()
ap.add_argument("groups", nargs="+", help="LABEL=DIR[,DIR...] (split at the last =)")
ap.add_argument("-o", "--out", required=True, help="writes OUT.md and OUT.svg")
ap.add_argument("--method", default="reader")
args = ap.parse_args()


def speedups(run_dir):
    runs = json.load(open(f"{run_dir}/bench.json"))["runs"]
    by = collections.defaultdict(list)
    for r in runs:
        by[(r["set"], r["method"])].append(r["tokens_per_s"])
    out = {}
    for (s, m), v in by.items():
        if m == args.method and (s, "ar") in by:
            out[s] = statistics.median(v) / statistics.median(by[(s, "ar")])
    return out


labels, table = [], collections.defaultdict(dict)  # table[set][label] = [speedups]
for g in args.groups:
    label, dirs = g.rsplit("=", 1)
    labels.append(label)
    for d in dirs.split(","):
        for s, x in speedups(d).items():
            table[s].setdefault(label, []).append(x)
sets = list(table)

with open(args.out + ".md", "w") as f:
    f.write(f"{args.method} / AR tokens/s, median over runs [min-max]\n\n")
    f.write("| set | " + " | ".join(labels) + " |\n|---|" + "---|" * len(labels) + "\n")
    for s in sets:
        cells = []
        for lab in labels:
            v = table[s].get(lab, [])
            cells.append(f"{statistics.median(v):.2f}x [{min(v):.2f}-{max(v):.2f}]" if v else "")
        f.write(f"| {s} | " + " | ".join(cells) + " |\n")

W, H, left, bottom, top_pad = 780, 360, 60, 40, 30
top = max(statistics.median(v) for s in sets for v in table[s].values()) * 1.1
gw = (W - left - 20) / len(sets)
bw = gw * 0.8 / len(labels)
colors = ["#aec7e8", "#1f77b4", "#ff9896", "#d62728", "#98df8a", "#2ca02c"]


def y(v):
    return H - bottom - (H - bottom - top_pad) * v / top


svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="11">',
       f'<text x="{W / 2}" y="16" text-anchor="middle" font-size="13">{args.method} speedup over AR (median of runs)</text>',
       f'<line x1="{left}" x2="{W - 20}" y1="{y(1):.1f}" y2="{y(1):.1f}" stroke="#888" stroke-dasharray="4"/>',
       f'<text x="{left - 5}" y="{y(1) + 4:.1f}" text-anchor="end">1.0x</text>']
for i, s in enumerate(sets):
    x0 = left + i * gw + gw * 0.1
    for j, lab in enumerate(labels):
        v = table[s].get(lab)
        if not v:
            continue
        m = statistics.median(v)
        svg.append(f'<rect x="{x0 + j * bw:.1f}" y="{y(m):.1f}" width="{bw - 2:.1f}" height="{y(0) - y(m):.1f}" fill="{colors[j % len(colors)]}"/>')
        svg.append(f'<text x="{x0 + j * bw + bw / 2:.1f}" y="{y(m) - 3:.1f}" text-anchor="middle" font-size="9">{m:.2f}</text>')
    svg.append(f'<text x="{x0 + gw * 0.4:.1f}" y="{H - bottom + 15}" text-anchor="middle">{s}</text>')
for j, lab in enumerate(labels):
    svg.append(f'<rect x="{left + j * 180}" y="{H - 16}" width="10" height="10" fill="{colors[j % len(colors)]}"/>'
               f'<text x="{left + j * 180 + 14}" y="{H - 7}">{lab}</text>')
svg.append("</svg>")
open(args.out + ".svg", "w").write("\n".join(svg))
print(open(args.out + ".md").read())
