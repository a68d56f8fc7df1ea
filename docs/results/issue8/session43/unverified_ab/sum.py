#!/usr/bin/env python3
"""A/B of learning from left-out proposals (session 43): per arm, READER / AR per set (the
bench's median tokens/s ratio) as the median over rounds, the geometric mean by round,
tokens committed and drafted per step, and READER runs identical to AR.
Layout: DIR/r{round}_{arm}/bench.json[.gz] (session16/token_record_ab/run.sh).
usage: sum.py DIR"""
import glob
import math
import os
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../.."))
from bench_io import load_bench  # noqa: E402


def geomean(v):
    return math.exp(statistics.mean(math.log(x) for x in v))


d = sys.argv[1] if len(sys.argv) > 1 else sys.exit(__doc__)
speed = defaultdict(lambda: defaultdict(list))  # arm -> set -> [speedup]
rounds = defaultdict(list)  # arm -> [geomean]
steps = defaultdict(lambda: [0, 0, 0])  # arm -> tokens, drafted, steps
same = defaultdict(lambda: [0, 0])
for run in sorted(glob.glob(os.path.join(d, "r*_*"))):
    if not os.path.isdir(run):
        continue
    arm = os.path.basename(run).split("_", 1)[1]
    j = load_bench(run)
    sp = {r["set"]: r["speedup"] for r in j["summary"] if r["method"] == "reader"}
    for s, v in sp.items():
        speed[arm][s].append(v)
    rounds[arm].append(geomean(sp.values()))
    for r in j["runs"]:
        if r["method"] != "reader":
            continue
        st = steps[arm]
        st[0] += r["generated_tokens"]
        st[1] += r["drafted_tokens"]
        st[2] += r["steps"]
        same[arm][0] += bool(r["identical_to_ar"])
        same[arm][1] += 1
arms = sorted(speed)
sets = list(next(iter(speed.values())))
print("| set | " + " | ".join(arms) + " |")
print("|---|" + "---|" * len(arms))
for s in sets:
    print(f"| {s} | " + " | ".join(f"{statistics.median(speed[a][s]):.3f}" for a in arms) + " |")
print("| geomean of medians | " + " | ".join(f"{geomean([statistics.median(speed[a][s]) for s in sets]):.3f}" for a in arms) + " |")
print("| geomean by round | " + " | ".join(", ".join(f"{x:.3f}" for x in rounds[a]) for a in arms) + " |")
print("| tokens / drafted per step | " + " | ".join(f"{steps[a][0] / steps[a][2]:.3f} / {steps[a][1] / steps[a][2]:.2f}" for a in arms) + " |")
print("| identical to AR | " + " | ".join(f"{same[a][0]}/{same[a][1]}" for a in arms) + " |")
