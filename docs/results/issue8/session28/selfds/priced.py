#!/usr/bin/env python3
"""READER / AR priced instead of timed: per set, generated tokens over the sum of each step's
c(n, L) from ONE cost curve (the profile given), for every run directory given. Greedy, the
text and every step's size are the same whatever the host's speed, so this compares two
configurations without the host's drift (which moves AR's timed speed by 10-20% between
minutes, README "Tree sizes", session 27). It leaves out what the curve does not price:
drafting time and the dearer one-token steps after long ones.
usage: priced.py PROFILE.json NAME=RUN_DIR[,RUN_DIR...] ..."""
import collections, json, math, os, sys
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../session21/step_price"))
from price import c_of, curve_at  # the policy's interpolation of c(n, L)

profile = json.load(open(sys.argv[1]))
arms = dict(a.split("=", 1) for a in sys.argv[2:])
table = {}
for name, dirs in arms.items():
    tokens, cost = collections.defaultdict(float), collections.defaultdict(float)
    for d in dirs.split(","):
        for r in json.load(open(f"{d}/bench.json"))["runs"]:
            if r["method"] != "reader":
                continue
            curve = curve_at(profile, r["prompt_tokens"])
            tokens[r["set"]] += r["generated_tokens"]
            cost[r["set"]] += sum(k * c_of(curve, n) for n, k in enumerate(r["verified_histogram"]) if n > 0)
    table[name] = {s: tokens[s] / cost[s] for s in tokens}
names = list(arms)
sets = sorted(table[names[0]])
print("| set | " + " | ".join(names) + (f" | {names[1]} / {names[0]} |" if len(names) == 2 else " |"))
print("|---|" + "---|" * (len(names) + (len(names) == 2)))
for s in sets + ["geomean"]:
    vals = [table[n][s] if s != "geomean" else math.exp(sum(math.log(v) for v in table[n].values()) / len(sets)) for n in names]
    row = f"| {s} | " + " | ".join(f"{v:.3f}" for v in vals)
    print(row + (f" | {vals[1] / vals[0]:.3f} |" if len(names) == 2 else " |"))
