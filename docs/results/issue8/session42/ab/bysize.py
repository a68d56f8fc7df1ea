import glob, gzip, json, os, sys
from collections import defaultdict
ms = defaultdict(float); cnt = defaultdict(int)
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*_*", "bench.json*"))):
    arm = os.path.basename(os.path.dirname(path)).rsplit("_", 1)[0]
    for r in json.load(gzip.open(path) if path.endswith(".gz") else open(path))["runs"]:
        if r["set"] == "warm-up" or r["method"] not in ("ar", "reader"): continue
        key = (arm, r["set"] if len(sys.argv) > 2 else "all")
        for n, (m, c) in enumerate(zip(r["verify_ms_by_size"], r["verified_histogram"])):
            ms[key + (n,)] += m; cnt[key + (n,)] += c
keys = sorted(set(k[1] for k in ms))
for s in keys:
    print(s, " ".join(f"n={n}: " + " ".join(f"{a} {ms[(a,s,n)]/cnt[(a,s,n)]:.2f}" for a in ("A","B") if cnt[(a,s,n)]) + f" ({cnt[('A',s,n)]})" for n in range(1, 17) if cnt[("A", s, n)] >= 30))
