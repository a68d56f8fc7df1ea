"""Per size and arm: the median over rounds of the matmul's (mm), attention's (fa) and the
decode's (wall) milliseconds, and the median, range and count of rounds faster of the paired
ratios to BASE_ARM. usage: multi_sum.py FILE BASE_ARM"""
import collections, statistics as st, sys
path, base = sys.argv[1:3]
runs = collections.defaultdict(dict)
for line in open(path):
    p = line.split()
    if len(p) < 5 or len(p) % 2 == 0: continue
    runs[(p[1], p[2])][p[0]] = {p[i]: float(p[i + 1]) for i in range(3, len(p), 2)}
arms = sorted({a for v in runs.values() for a in v})
for size in sorted({s for s, _ in runs}, key=lambda s: int(s.split("=")[1])):
    for arm in arms:
        rounds = [v for (s, _), v in runs.items() if s == size and base in v and arm in v]
        out = []
        for m in ("mm", "fa", "wall"):
            a = [v[base][m] for v in rounds]; b = [v[arm][m] for v in rounds]
            r = sorted(y / x for x, y in zip(a, b))
            out.append(f"{m} {st.median(b):.3f} ratio {st.median(r):.3f} [{r[0]:.3f}-{r[-1]:.3f}] {sum(x<1 for x in r)}/{len(r)}")
        print(size, f"{arm:10s}", " | ".join(out))
