#!/usr/bin/env python3
"""Session 38's end-to-end A/B of the attention kernel: arm A ran with session 22's kernel
(libggml-cpu built from the patches at 1266dc8), arm B with the new one, same reader binary.
Per set and method: decode time summed over the set's prompts, arm B over arm A in each
round, and the median of the rounds; READER / AR per arm; and whether every text and every
step count is the same in both arms (the kernels give the same bits).

    ab_sum.py AB_DIR   (A_1 ... B_3 from session35's ab_flags.sh)
"""
import glob
import json
import os
import statistics
import sys
from collections import defaultdict


def load_arms(out):
    """{arm: {round: runs}} from OUT/{A,B}_{round}/bench.json (step_costs.py reads them too)."""
    arms = defaultdict(dict)
    for path in sorted(glob.glob(os.path.join(out, "[AB]_*", "bench.json"))):
        arm, rnd = os.path.basename(os.path.dirname(path)).split("_")
        arms[arm][int(rnd)] = json.load(open(path))["runs"]
    return arms


def main():
    arms = load_arms(sys.argv[1])
    rounds = sorted(set(arms["A"]) & set(arms["B"]))
    time = defaultdict(float)  # (arm, round, set, method) -> decode ms
    texts = {}
    same_text = same_steps = total = 0
    for arm in "AB":
        for rnd in rounds:
            for r in arms[arm][rnd]:
                time[arm, rnd, r["set"], r["method"]] += r["decode_ms"]
                key = (rnd, r["set"], r["id"], r["method"])
                if arm == "A":
                    texts[key] = (r["text"], r["steps"])
                else:
                    total += 1
                    same_text += texts[key][0] == r["text"]
                    same_steps += texts[key][1] == r["steps"]
    sets = sorted({k[2] for k in time})
    print(f"rounds {rounds}; B runs with A's text: {same_text}/{total}, with A's step count: {same_steps}/{total}")
    print("| set | AR time B/A | READER time B/A | READER/AR speedup A | B |")
    print("|---|---|---|---|---|")
    allm = defaultdict(list)
    for s in sets:
        row = []
        for m in ("ar", "reader"):
            ratios = [time["B", r, s, m] / time["A", r, s, m] for r in rounds]
            allm[m].append(statistics.median(ratios))
            row.append(f"{statistics.median(ratios):.3f} ({min(ratios):.3f}-{max(ratios):.3f})")
        sp = {a: statistics.median(time[a, r, s, "ar"] / time[a, r, s, "reader"] for r in rounds) for a in "AB"}
        print(f"| {s} | {row[0]} | {row[1]} | {sp['A']:.3f} | {sp['B']:.3f} |")
    for m in ("ar", "reader"):
        tot = [sum(time["B", r, s, m] for s in sets) / sum(time["A", r, s, m] for s in sets) for r in rounds]
        print(f"all sets, {m}: time B/A by round {' '.join(f'{x:.3f}' for x in tot)}")


if __name__ == "__main__":
    main()
