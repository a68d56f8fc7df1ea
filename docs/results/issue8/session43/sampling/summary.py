#!/usr/bin/env python3
"""The sampling target on every set, with the copy-oracle bound of each run's own AR text
(session 43). Layout: DIR/r{round}_{greedy,s1,s2,s3}/bench.json[.gz], as written by
`SETS=... EXTRA=--bound session37/sampling/run.sh DIR`.

Per set: READER's speedup over AR (greedy: median over rounds; T = 0.8: median over every
round and seed), sampled over greedy, and the same two figures for the bound, so that the
share of greedy's speedup that sampling keeps can be read beside the share the texts
themselves allow.

usage: summary.py DIR [--svg FILE]   (FILE: the four figures per set as grouped bars)
"""
import glob
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../.."))
from bench_io import load_bench  # noqa: E402
from svg_bars import grouped_bars  # noqa: E402


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else sys.exit(__doc__)
    svg = sys.argv[sys.argv.index("--svg") + 1] if "--svg" in sys.argv else None
    rounds = sorted({os.path.basename(p).split("_")[0] for p in glob.glob(os.path.join(d, "r*_greedy"))})
    speed = {"greedy": {}, "sampled": {}}  # kind -> set -> [speedup]
    bound = {"greedy": {}, "sampled": {}}
    same = total = 0
    for r in rounds:
        for cfg in ("greedy", "s1", "s2", "s3"):
            j = load_bench(os.path.join(d, f"{r}_{cfg}"))
            kind = "greedy" if cfg == "greedy" else "sampled"
            for row in j["summary"]:
                if row["method"] != "reader":
                    continue
                speed[kind].setdefault(row["set"], []).append(row["speedup"])
                if "bound" in row:
                    bound[kind].setdefault(row["set"], []).append(row["bound"])
            for run in j["runs"]:
                if run["method"] == "reader":
                    total += 1
                    same += bool(run["identical_to_ar"])
    print(f"rounds: {len(rounds)}; READER runs identical to AR: {same}/{total}\n")
    print("| set | greedy | T = 0.8 | sampled / greedy | bound greedy | bound T = 0.8 | bound ratio | share of bound greedy / T = 0.8 |")
    print("|---|---|---|---|---|---|---|---|")
    logs = {"g": [], "s": [], "bg": [], "bs": []}
    groups = {}
    for s in speed["greedy"]:
        g = statistics.median(speed["greedy"][s])
        t = statistics.median(speed["sampled"][s])
        bg = statistics.median(bound["greedy"].get(s, [math.nan]))
        bs = statistics.median(bound["sampled"].get(s, [math.nan]))
        groups[s] = {"READER greedy": g, "READER T = 0.8": t, "bound greedy": bg, "bound T = 0.8": bs}
        for k, v in (("g", g), ("s", t), ("bg", bg), ("bs", bs)):
            logs[k].append(math.log(v))
        print(f"| {s} | {g:.2f}x | {t:.2f}x | {100 * t / g:.0f}% | {bg:.2f}x | {bs:.2f}x | "
              f"{100 * bs / bg:.0f}% | {100 * g / bg:.0f}% / {100 * t / bs:.0f}% |")
    gm = {k: math.exp(statistics.mean(v)) for k, v in logs.items()}
    print(f"| geomean | {gm['g']:.2f}x | {gm['s']:.2f}x | {100 * gm['s'] / gm['g']:.1f}% | "
          f"{gm['bg']:.2f}x | {gm['bs']:.2f}x | {100 * gm['bs'] / gm['bg']:.0f}% | "
          f"{100 * gm['g'] / gm['bg']:.0f}% / {100 * gm['s'] / gm['bs']:.0f}% |")
    if svg:
        grouped_bars(svg, "READER over AR, greedy and T = 0.8 (seeds 1-3), with the copy-oracle bound of each text",
                     groups, list(next(iter(groups.values()))), colours=["#1f77b4", "#aec7e8", "#ff7f0e", "#ffbb78"])


if __name__ == "__main__":
    main()
