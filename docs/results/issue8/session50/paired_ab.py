#!/usr/bin/env python3
"""Paired comparison of two arms from ab_env.sh's output: lines
"ARM n=N r=R name value [name value ...]" (mm: the matmul's own ms per decode, fa: attention's,
wall: the decode's wall median). For each size and measure: each arm's median over rounds, the
median of the rounds' ratios NEW / BASE, their quartiles and range, and how many rounds NEW was
faster in.

    python3 paired_ab.py FILE BASE_ARM NEW_ARM
"""
import collections
import statistics as st
import sys

path, base, new = sys.argv[1:4]
runs = collections.defaultdict(dict)  # (size, round) -> arm -> {measure: value}
for line in open(path):
    p = line.split()
    if len(p) < 5 or len(p) % 2 == 0:
        continue  # a run cut short
    runs[(p[1], p[2])][p[0]] = {p[i]: float(p[i + 1]) for i in range(3, len(p), 2)}
for size in sorted({s for s, _ in runs}, key=lambda s: int(s.split("=")[1])):
    rounds = [v for (s, _), v in runs.items() if s == size and base in v and new in v]
    for measure in rounds[0][base]:
        a = [v[base][measure] for v in rounds]
        b = [v[new][measure] for v in rounds]
        r = sorted(y / x for x, y in zip(a, b))
        print(f"{size} {measure}: {base} {st.median(a):.3f} ms, {new} {st.median(b):.3f} ms; paired ratio "
              f"median {st.median(r):.3f}, quartiles {r[len(r) // 4]:.3f}-{r[3 * len(r) // 4]:.3f}, "
              f"range {r[0]:.3f}-{r[-1]:.3f}, {sum(x < 1 for x in r)}/{len(r)} rounds faster")
