#!/usr/bin/env python3
"""Per arm and set: READER / AR by summed decode time, per round and median; identical runs;
tokens and drafted tokens per step.   sum.py DIR   (DIR/{arm}_{round}/bench.json)"""
import glob, json, os, statistics, sys
from collections import defaultdict
t = defaultdict(float); ident = defaultdict(lambda: [0, 0]); tok = defaultdict(lambda: [0, 0, 0])
arms, rounds, sets = [], set(), []
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*_*", "bench.json"))):
    arm, rnd = os.path.basename(os.path.dirname(path)).rsplit("_", 1)
    if arm not in arms: arms.append(arm)
    rounds.add(rnd)
    for r in json.load(open(path))["runs"]:
        if r["set"] == "warm-up": continue
        if r["set"] not in sets: sets.append(r["set"])
        t[(arm, rnd, r["set"], r["method"])] += r["decode_ms"]
        if r["method"] == "reader":
            ident[(arm, r["set"])][0] += bool(r["identical_to_ar"]); ident[(arm, r["set"])][1] += 1
            k = tok[(arm, r["set"])]; k[0] += r["generated_tokens"]; k[1] += r["steps"]; k[2] += r["drafted_tokens"]
print("set".ljust(14) + "".join(a.ljust(44) for a in arms))
gm = defaultdict(list)
for s in sets:
    line = s.ljust(14)
    for a in arms:
        rs = [t[(a, r, s, "ar")] / t[(a, r, s, "reader")] for r in sorted(rounds) if t[(a, r, s, "reader")]]
        m = statistics.median(rs); gm[a].append(m); k = tok[(a, s)]; i = ident[(a, s)]
        line += ("%.3f [%s] %d/%d tps %.2f dr %.2f" % (m, " ".join("%.2f" % x for x in rs), i[0], i[1], k[0] / k[1], k[2] / k[1])).ljust(44)
    print(line)
import math
print("geomean".ljust(14) + "".join(("%.3f" % math.exp(sum(map(math.log, gm[a])) / len(gm[a]))).ljust(44) for a in arms))
