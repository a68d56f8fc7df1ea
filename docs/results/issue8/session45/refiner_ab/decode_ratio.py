#!/usr/bin/env python3
"""Per arm and set, over A/B runs: READER's decode tokens per ms over AR's in the same run
(each summed over the set's prompts; the median over runs), READER's mean step in AR tokens'
decode time (median over runs), and its tokens and drafted tokens per step (deterministic
greedy: the first run's). Then the geometric mean over sets of the medians.
Layout: DIR/r{round}_{arm}/bench.json[.gz] (session16/token_record_ab/run.sh).
usage: decode_ratio.py DIR..."""
import glob
import math
import os
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../.."))
from bench_io import load_bench  # noqa: E402


def per_set(run):
    """set -> method -> summed tokens, decode ms, steps, drafted tokens."""
    sums = defaultdict(lambda: defaultdict(lambda: defaultdict(float)))
    for r in load_bench(run)["runs"]:
        if r["set"] == "warm-up":
            continue
        m = sums[r["set"]][r["method"]]
        m["tok"] += r["generated_tokens"]
        m["ms"] += r["decode_ms"]
        m["steps"] += r.get("steps", 0)
        m["drafted"] += r.get("drafted_tokens", 0)
    return sums


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    res = defaultdict(lambda: defaultdict(list))  # arm -> set -> [(ratio, step cost, tok, drafted)]
    for d in sys.argv[1:]:
        for run in sorted(glob.glob(os.path.join(d, "r*_*"))):
            if not os.path.isdir(run):
                continue
            arm = os.path.basename(run).split("_", 1)[1]
            for name, m in per_set(run).items():
                reader, ar = m["reader"], m["ar"]
                ar_ms = ar["ms"] / ar["tok"]
                res[arm][name].append((reader["tok"] / reader["ms"] * ar_ms,
                                       reader["ms"] / reader["steps"] / ar_ms,
                                       reader["tok"] / reader["steps"],
                                       reader["drafted"] / reader["steps"]))
    arms = sorted(res)
    print("| set | " + " | ".join(f"{a}: decode ratio, step cost, tokens / drafted per step"
                                   for a in arms) + " |")
    print("|---|" + "---|" * len(arms))
    for name in sorted(res[arms[0]]):
        cells = []
        for a in arms:
            v = res[a][name]
            cells.append(f"{statistics.median(x[0] for x in v):.3f}, "
                         f"{statistics.median(x[1] for x in v):.2f}, {v[0][2]:.2f} / {v[0][3]:.2f}")
        print(f"| {name} | " + " | ".join(cells) + " |")
    print("| geometric mean (runs) | " + " | ".join(
        f"{math.exp(statistics.mean(math.log(statistics.median(x[0] for x in res[a][s])) for s in res[a])):.3f}"
        f" ({len(next(iter(res[a].values())))})" for a in arms) + " |")


if __name__ == "__main__":
    main()
