#!/usr/bin/env python3
"""Paired ratios of the matmul's time per decode and of the decode's wall median, prefetch
distance 12 against 4 blocks, from pf_ab2.txt (pf_ab2.sh's output)."""
import collections
import statistics as st
import sys

d = collections.defaultdict(dict)
for line in open(sys.argv[1] if len(sys.argv) > 1 else "pf_ab2.txt"):
    p = line.split()
    if len(p) < 7:
        continue
    d[(p[1], p[2])][p[0][3:]] = (float(p[4]), float(p[6]))
for n in ("n=1", "n=8"):
    rounds = [v for k, v in d.items() if k[0] == n and "4" in v and "12" in v]
    for i, what in ((0, "matmul ms/decode"), (1, "decode wall median")):
        a = [v["4"][i] for v in rounds]
        b = [v["12"][i] for v in rounds]
        r = sorted(y / x for x, y in zip(a, b))
        print(f"{n} {what}: distance 4 {st.median(a):.3f}, 12 {st.median(b):.3f}; paired ratio median "
              f"{st.median(r):.3f}, quartiles {r[len(r) // 4]:.3f}-{r[3 * len(r) // 4]:.3f}, "
              f"{sum(x < 1 for x in r)}/{len(r)} rounds faster")
