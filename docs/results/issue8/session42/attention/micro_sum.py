import sys, statistics
from collections import defaultdict
v = defaultdict(list)
for line in open(sys.argv[1]):
    r, L, n, lib, ms = line.split(); v[(int(L), int(n), lib)].append(float(ms))
libs = sorted(set(k[2] for k in v))
for L, n in sorted(set(k[:2] for k in v)):
    a = v[(L, n, "A")]
    print(f"L={L:5d} n={n:2d} " + " ".join(f"{lib} {statistics.median(v[(L,n,lib)]):6.2f}" for lib in libs) + "  ratio/A: " +
          " ".join(f"{lib} {statistics.median([x/y for x,y in zip(v[(L,n,lib)], a)]):.3f}" for lib in libs if lib != "A"))
