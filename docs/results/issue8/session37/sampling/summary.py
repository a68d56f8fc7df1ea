#!/usr/bin/env python3
"""The sampling target measured within one hour (session 37): READER's speedup per set at
T = 0.8 over its greedy speedup, each round's greedy run and its three seeds run back to back
on the same prompts. Layout: DIR/r{round}_{greedy,s1,s2,s3}/bench.json.

usage: summary.py DIR
"""
import glob
import importlib.util
import os
import statistics
import sys

# Session 21's summary reads one bench's per-set speedups and identical runs (same file name as
# this one, so loaded by path).
_spec = importlib.util.spec_from_file_location(
    "session21_summary", os.path.join(os.path.dirname(__file__), "../../session21/sampling/summary.py"))
_session21 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_session21)
speedups = _session21.speedups

d = sys.argv[1] if len(sys.argv) > 1 else sys.exit(__doc__)
rounds = sorted({os.path.basename(p).split("_")[0] for p in glob.glob(os.path.join(d, "r*_greedy"))})
same = total = 0
table = {}
for r in rounds:
    greedy, i, n = speedups(os.path.join(d, f"{r}_greedy"))
    same, total = same + i, total + n
    seeds = []
    for s in ("s1", "s2", "s3"):
        sp, i, n = speedups(os.path.join(d, f"{r}_{s}"))
        same, total = same + i, total + n
        seeds.append(sp)
    for name, g in greedy.items():
        sampled = statistics.median(sp[name] for sp in seeds)
        table.setdefault(name, []).append((g, sampled, [sp[name] for sp in seeds]))
print(f"READER runs identical to AR: {same}/{total}")
print("| set | round | greedy | T = 0.8, seeds 1-3 | median sampled / greedy |")
print("|---|---|---|---|---|")
for name, rows in table.items():
    for k, (g, s, each) in enumerate(rows, 1):
        print(f"| {name} | {k} | {g:.2f}x | {', '.join(f'{x:.2f}x' for x in each)} | {100 * s / g:.0f}% |")
    g = statistics.median(x[0] for x in rows)
    s = statistics.median(v for x in rows for v in x[2])
    ratios = [100 * x[1] / x[0] for x in rows]
    print(f"| {name} | median | {g:.2f}x | {s:.2f}x (all 9) | {100 * s / g:.0f}% "
          f"(rounds {min(ratios):.0f}-{max(ratios):.0f}%) |")
