"""The README's main table from several `reader bench --bound --peers` runs: medians over runs.

    python3 summary3.py DIR1 DIR2 DIR3 [--svg OUT.svg]     (each DIR holds bench.json[.gz])
    python3 summary3.py DIR1 DIR2 DIR3 --total-time        (speedups by total time instead)

Per set: every method's and peer's speedup (the bench's ratio of median tok/s over our AR),
as the median over the runs; the copy-oracle bound without / with the datastore (medians)
and READER's share of it, under the profile's curve and (runs from session 52 on) under the
steps each run paid ("paid"); READER's slowest prompt and 10th percentile of per-prompt speedups,
each prompt's speedup being its median over the runs. Last rows: geometric means over the
sets of the medians, then each run's own geometric means (the spread between runs).
"""
import math
import os
import statistics as st
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from bench_io import load_bench  # noqa: E402
from svg_bars import grouped_bars  # noqa: E402

args = sys.argv[1:]
svg_out = None
if "--svg" in args:
    i = args.index("--svg")
    svg_out = args[i + 1]
    del args[i:i + 2]
total_time = "--total-time" in args
if total_time:
    args.remove("--total-time")
runs = [load_bench(d) for d in args]
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
paid = all("bound_paid" in r for rows in summary.values() for r in rows["reader"])


def med(rows, key):
    return st.median(float(r[key]) for r in rows)


if total_time:
    # Each run's speedup by total decode time over our AR's (the bench's speedup_total_time),
    # every method but AR, then the medians over the runs.
    others = [m for m in next(iter(summary.values())) if m != "ar"]

    def line(s, value):
        return f"  {s:14s} " + " ".join(f"{m[:12]}={value(m):.3f}" for m in others)

    for i, d in enumerate(args):
        print(f"{d}/bench.json")
        for s, rows in summary.items():
            print(line(s, lambda m: float(rows[m][i]["speedup_total_time"])))
    print("median of the runs")
    for s, rows in summary.items():
        print(line(s, lambda m: med(rows[m], "speedup_total_time")))
    sys.exit(0)


print(f"| set | AR tok/s | " + " | ".join(methods) +
      " | bound p+o / +ds | reader share" + (" | bound paid | reader share paid" if paid else "") +
      " | reader min / p10 per prompt |")
print("|---" * (len(methods) + (7 if paid else 5)) + "|")
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
    paid_cells = ""
    if paid:
        pb, pbd = med(r, "bound_paid"), med(r, "bound_datastore_paid")
        paid_cells = f" | {pb:.2f}x / {pbd:.2f}x | {100 * sp / pb:.0f}% / {100 * sp / pbd:.0f}%"
    print(f"| {s} | {med(rows['ar'], 'median_tokens_per_s'):.1f} | " + " | ".join(cells) +
          f" | {b:.2f}x / {bd:.2f}x | {100 * sp / b:.0f}% / {100 * sp / bd:.0f}%" + paid_cells +
          f" | {ratios[0]:.2f} / {p10:.2f} |")
blank = " |" * (5 if paid else 3)
print("| **geomean** | | " + " | ".join(f"**{math.exp(st.mean(logs[m])):.3f}**" for m in methods) +
      blank)
for i, d in enumerate(runs):
    g = defaultdict(list)
    for row in d["summary"]:
        if row["method"] in methods:
            g[row["method"]].append(math.log(float(row["speedup"])))
    print(f"| run {i + 1} geomean | | " +
          " | ".join(f"{math.exp(st.mean(g[m])):.3f}" for m in methods) + blank)


def write_svg(path, medians, methods):
    """Grouped bars: each set's median speedup per method (and the geomean), 1.0 marked."""
    geo = {m: math.exp(st.mean(math.log(medians[s][m]) for s in medians)) for m in methods}
    grouped_bars(path, "Speedup over our AR, median of the runs (report prompts)",
                 {**medians, "geomean": geo}, methods)


if svg_out:
    write_svg(svg_out, {s: {m: med(rows[m], "speedup") for m in methods} for s, rows in summary.items()},
              methods)
