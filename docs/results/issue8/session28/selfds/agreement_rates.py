#!/usr/bin/env python3
"""Calibration counts of several profiles side by side, summed per (source, agreement):
accepted / tried on the calibration prompts. usage: agreement_rates.py NAME=PROFILE.json ..."""
import collections, json, sys

AGREEMENT = {0: "this text's guess", 1: "datastore's guess", 2: "both", 3: "neither"}
profiles = dict(a.split("=", 1) for a in sys.argv[1:])
sums = {}
for name, path in profiles.items():
    d = collections.defaultdict(lambda: [0.0, 0.0])
    for c in json.load(open(path))["acceptance"]:
        key = (c["source"], AGREEMENT[c["agreement"]] if c["source"] in ("widening", "deepening") else "")
        d[key][0] += c["accepted"]
        d[key][1] += c["tried"]
    sums[name] = d
print("| source | first ranked by | " + " | ".join(profiles) + " |")
print("|---|---|" + "---|" * len(profiles))
for key in sorted(set().union(*sums.values())):
    cells = []
    for name in profiles:
        acc, tried = sums[name][key]
        cells.append(f"{acc / tried:.2f} ({tried:.0f})" if tried else "-")
    print(f"| {key[0]} | {key[1]} | " + " | ".join(cells) + " |")
