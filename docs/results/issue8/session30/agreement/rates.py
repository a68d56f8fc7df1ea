#!/usr/bin/env python3
"""Calibrated acceptance of the speculator's first and second guesses at depths 1-3, by
confidence bucket, alone and seconded by retrieval or the copy (agreement 2), from a profile.
usage: rates.py PROFILE.json"""
import collections, json, sys

p = json.load(open(sys.argv[1]))
cells = collections.defaultdict(lambda: [0.0, 0.0])
for c in p["acceptance"]:
    if c["source"] != "speculator":
        continue
    depth, rank = c["feature"] // 4 + 1, c["feature"] % 4
    if depth <= 3 and rank <= 1:
        key = (depth, rank, c["strength"], c["agreement"])
        cells[key][0] += c["accepted"]
        cells[key][1] += c["tried"]
print("| depth | guess | confidence bucket | alone: accepted / tried | seconded: accepted / tried |")
print("|---|---|---|---|---|")
for depth in (1, 2, 3):
    for rank in (0, 1):
        for s in range(4):
            row = []
            for ag in (0, 2):
                a, t = cells[(depth, rank, s, ag)]
                row.append(f"{a / t:.2f} ({t:.0f})" if t else "-")
            if any(r != "-" for r in row):
                print(f"| {depth} | {rank + 1} | {s} | {row[0]} | {row[1]} |")
