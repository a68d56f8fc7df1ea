"""The README's main table from one `reader bench --bound --peers` run.

    python3 summary.py DIR     (DIR holds bench.json)

Per set: every method's and peer's speedup (ratio of median tok/s over our AR), the
copy-oracle bound without / with the datastore, READER's share of it, and READER's slowest
prompt and 10th percentile of per-prompt speedups (READER tok/s over AR tok/s, same prompt).
Last row: geometric means over the sets.
"""
import json
import math
import statistics as st
import sys
from collections import defaultdict

d = json.load(open(sys.argv[1] + "/bench.json"))
summary = defaultdict(dict)
for row in d["summary"]:
    summary[row["set"]][row["method"]] = row
methods = [m for m in next(iter(summary.values())) if m not in ("ar", "llama:ar")]
per_prompt = defaultdict(lambda: defaultdict(dict))
for r in d["runs"]:
    per_prompt[r["set"]][r["id"]][r["method"]] = r["tokens_per_s"]

print("| set | AR tok/s | " + " | ".join(methods) +
      " | bound p+o / +ds | reader share | reader min / p10 per prompt |")
print("|---" * (len(methods) + 5) + "|")
logs = defaultdict(list)
for s, rows in summary.items():
    ratios = sorted(p["reader"] / p["ar"] for p in per_prompt[s].values())
    k = 0.1 * (len(ratios) - 1)  # linear interpolation, like numpy's default
    lo, hi = math.floor(k), math.ceil(k)
    p10 = ratios[lo] + (ratios[hi] - ratios[lo]) * (k - lo)
    r = rows["reader"]
    cells = []
    for m in methods:
        cells.append(f"{rows[m]['speedup']:.2f}x")
        logs[m].append(math.log(rows[m]["speedup"]))
    print(f"| {s} | {rows['ar']['median_tokens_per_s']:.1f} | " + " | ".join(cells) +
          f" | {r['bound']:.2f}x / {r['bound_datastore']:.2f}x"
          f" | {100 * r['fraction_of_bound']:.0f}% / {100 * r['fraction_of_bound_datastore']:.0f}%"
          f" | {ratios[0]:.2f} / {p10:.2f} |")
print("| **geomean** | | " + " | ".join(f"**{math.exp(st.mean(logs[m])):.3f}**" for m in methods) +
      " | | | |")
