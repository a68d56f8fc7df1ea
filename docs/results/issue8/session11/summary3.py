"""The README's main table from several `reader bench --bound --peers` runs: medians over runs.

    python3 summary3.py DIR1 DIR2 DIR3     (each DIR holds bench.json)

Per set: every method's and peer's speedup (the bench's ratio of median tok/s over our AR),
as the median over the runs; the copy-oracle bound without / with the datastore (medians)
and READER's share of it; READER's slowest prompt and 10th percentile of per-prompt speedups,
each prompt's speedup being its median over the runs. Last rows: geometric means over the
sets of the medians, then each run's own geometric means (the spread between runs).
"""
import json
import math
import statistics as st
import sys
from collections import defaultdict

runs = [json.load(open(d + "/bench.json")) for d in sys.argv[1:]]
summary = defaultdict(lambda: defaultdict(list))  # set -> method -> [row per run]
per_prompt = defaultdict(lambda: defaultdict(list))  # set -> id -> [reader/ar per run]
for d in runs:
    for row in d["summary"]:
        summary[row["set"]][row["method"]].append(row)
    tps = defaultdict(dict)
    for r in d["runs"]:
        tps[(r["set"], r["id"])][r["method"]] = float(r["tokens_per_s"])
    for (s, i), m in tps.items():
        per_prompt[s][i].append(m["reader"] / m["ar"])
methods = [m for m in next(iter(summary.values())) if m not in ("ar", "llama:ar")]


def med(rows, key):
    return st.median(float(r[key]) for r in rows)


print(f"| set | AR tok/s | " + " | ".join(methods) +
      " | bound p+o / +ds | reader share | reader min / p10 per prompt |")
print("|---" * (len(methods) + 5) + "|")
logs = defaultdict(list)
for s, rows in summary.items():
    ratios = sorted(st.median(v) for v in per_prompt[s].values())
    k = 0.1 * (len(ratios) - 1)  # linear interpolation, like numpy's default
    lo, hi = math.floor(k), math.ceil(k)
    p10 = ratios[lo] + (ratios[hi] - ratios[lo]) * (k - lo)
    cells = []
    for m in methods:
        v = med(rows[m], "speedup")
        cells.append(f"{v:.2f}x")
        logs[m].append(math.log(v))
    r = rows["reader"]
    b, bd, sp = med(r, "bound"), med(r, "bound_datastore"), med(r, "speedup")
    print(f"| {s} | {med(rows['ar'], 'median_tokens_per_s'):.1f} | " + " | ".join(cells) +
          f" | {b:.2f}x / {bd:.2f}x | {100 * sp / b:.0f}% / {100 * sp / bd:.0f}%"
          f" | {ratios[0]:.2f} / {p10:.2f} |")
print("| **geomean** | | " + " | ".join(f"**{math.exp(st.mean(logs[m])):.3f}**" for m in methods) +
      " | | | |")
for i, d in enumerate(runs):
    g = defaultdict(list)
    for row in d["summary"]:
        if row["method"] in methods:
            g[row["method"]].append(math.log(float(row["speedup"])))
    print(f"| run {i + 1} geomean | | " +
          " | ".join(f"{math.exp(st.mean(g[m])):.3f}" for m in methods) + " | | | |")
