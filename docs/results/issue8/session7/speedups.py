"""READER's speedup per set, the mean over rounds of (median READER tok/s / median AR tok/s).

    python3 speedups.py LABEL:DIR1,DIR2 [LABEL:DIR ...]   (each DIR holds a bench.json)

A label may name another method as LABEL@METHOD. Prints one column per label and the
geometric mean over the sets.
"""
import json
import math
import statistics as st
import sys
from collections import defaultdict


def speedups(run_dir, method):
    """Per set: median tok/s of `method` over median tok/s of AR, in one bench run."""
    by_set = defaultdict(lambda: defaultdict(list))
    for r in json.load(open(f"{run_dir}/bench.json"))["runs"]:
        by_set[r["set"]][r["method"]].append(r["tokens_per_s"])
    return {s: st.median(m[method]) / st.median(m["ar"])
            for s, m in by_set.items() if method in m}


def main(args):
    columns = {}
    for arg in args:
        label, dirs = arg.rsplit(":", 1)
        label, _, method = label.partition("@")
        rounds = [speedups(d, method or "reader") for d in dirs.split(",")]
        columns[label] = {s: st.mean(r[s] for r in rounds) for s in rounds[0]}
    sets = list(next(iter(columns.values())))
    print("set".ljust(14) + "".join(label.rjust(10) for label in columns))
    for s in sets:
        print(s[:13].ljust(14) + "".join(f"{columns[c][s]:10.3f}" for c in columns))
    print("geomean".ljust(14) + "".join(
        f"{math.exp(st.mean(math.log(v) for v in columns[c].values())):10.3f}" for c in columns))


if __name__ == "__main__":
    main(sys.argv[1:])
