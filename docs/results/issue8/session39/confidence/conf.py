#!/usr/bin/env python3
"""Does the model's confidence in the tokens just committed predict whether drafts are accepted?
conf.py TRACE PROBS [FEATURE]: calibration (accepted / sum q) of tried nodes by bins of the
feature, by source; then replay with factors fitted on even-indexed generations, tested on odd
ones, and vice versa."""
import json, sys, os
from collections import defaultdict
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../../../scripts")); import replay_drafts as R
BINS = [0, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 0.98, 0.995, 1.0001]
FEATURE = sys.argv[3] if len(sys.argv) > 3 else "root"
def fbin(x): return next(k for k, (a, b) in enumerate(zip(BINS, BINS[1:])) if a <= x < b)
probs = [json.loads(l) for l in open(sys.argv[2])]
gens = []
for g, (set_name, prompt, steps, commits) in enumerate(R.read_generations(sys.argv[1], "reader")):
    pr = probs[g]; assert pr["set"] == set_name
    items = []
    for context, step, future in R.generation_steps(prompt, steps, commits):
        r = len(context) - len(prompt) - 1  # output index of the root
        p = pr["p"]
        if FEATURE == "root": x = p[r]
        elif FEATURE == "min2": x = min(p[max(0, r - 1):r + 1])
        elif FEATURE == "min3": x = min(p[max(0, r - 2):r + 1])
        elif FEATURE == "top": x = pr["top"][r]
        elif FEATURE == "mean4": w = p[max(0, r - 3):r + 1]; x = sum(w) / len(w)
        items.append((set_name, step, R.judge(step, future), fbin(x)))
    gens.append(items)
def fit(gs):
    n, ok, q = defaultdict(int), defaultdict(int), defaultdict(float)
    for items in gs:
        for _, step, (depth, matched), b in items:
            for i, (parent, qq, src) in enumerate(zip(step["parents"], step["q"], step["sources"]), 1):
                if matched[parent] and qq >= 0:
                    for key in (b, (b, src)):
                        n[key] += 1; ok[key] += matched[i]; q[key] += qq
    return n, ok, q
n, ok, q = fit(gens)
print(f"feature {FEATURE}: accepted / sum q by bin (all sources)  [per source 1 spec 2 widen 3 deep 5 copy]")
for k, (a, b) in enumerate(zip(BINS, BINS[1:])):
    if n[k]:
        per = " ".join(f"s{s}:{ok[(k,s)]/q[(k,s)]:.2f}({n[(k,s)]})" for s in (1, 2, 3, 5) if q[(k, s)] > 0)
        print(f"  [{a:.3f},{min(b,1):.3f}) {n[k]:6d} nodes acc {ok[k]/n[k]:.3f} q {q[k]/n[k]:.3f} ratio {ok[k]/q[k]:.2f}   {per}")
tot = defaultdict(lambda: [[0.0, 0.0], [0.0, 0.0]])
for fit_on, test_on in ((gens[0::2], gens[1::2]), (gens[1::2], gens[0::2])):
    n, ok, q = fit(fit_on)
    f = {key: (ok[key] + 2 * (q[key] / n[key])) / (q[key] + 2 * (q[key] / n[key])) for key in n if isinstance(key, tuple) and q[key] > 0}
    for items in test_on:
        for set_name, step, judged, b in items:
            if not all(x >= 0 for x in step["q"]): continue
            cost = step["cost"]
            scaled = dict(step, q=[min(0.99, qq * f.get((b, src), 1.0)) for qq, src in zip(step["q"], step["sources"])])
            for arm, s in enumerate((step, scaled)):
                keep = R.best_path(s, lambda e, k: e / cost[k - 1])
                tot[set_name][arm][0] += 1 + R.accepted_depth(judged, keep)
                tot[set_name][arm][1] += cost[len(keep) - 1]
import math
rs = []
for s, (a, b) in tot.items():
    r = (b[0] / b[1]) / (a[0] / a[1]); rs.append(r)
    print(f"  {s:14s} path {a[0]/a[1]:.3f} tokens/cost, scaled {b[0]/b[1]:.3f} ({r:.3f})")
print(f"  geomean ratio {math.exp(sum(map(math.log, rs))/len(rs)):.4f}")
