#!/usr/bin/env python3
"""Paired ratios, repack buffer in 2 MB pages (thp=1) against 4 KB pages (thp=0), from
thp_ab.txt (thp_ab.sh's output): the matmul's and attention's own time per decode and the
decode's wall median."""
import collections
import statistics as st
import sys

d = collections.defaultdict(dict)
for line in open(sys.argv[1] if len(sys.argv) > 1 else "thp_ab.txt"):
    p = line.split()
    if len(p) < 9:
        continue
    d[(p[1], p[2])][p[0][4:]] = (float(p[4]), float(p[6]), float(p[8]))
for n in ("n=1", "n=8"):
    rounds = [v for k, v in d.items() if k[0] == n and "0" in v and "1" in v]
    for i, what in ((0, "matmul"), (1, "attention"), (2, "wall")):
        a = [v["0"][i] for v in rounds]
        b = [v["1"][i] for v in rounds]
        r = sorted(y / x for x, y in zip(a, b))
        print(f"{n} {what}: 4 KB pages {st.median(a):.3f} ms, 2 MB {st.median(b):.3f} ms, paired ratio "
              f"median {st.median(r):.3f} [{r[0]:.3f}-{r[-1]:.3f}], {sum(x < 1 for x in r)}/{len(r)} faster")
