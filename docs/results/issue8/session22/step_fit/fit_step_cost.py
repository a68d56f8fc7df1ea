"""Fit real step cost c(n) (in AR tokens of the same prompt) from bench runs: READER's verify time
= sum_n steps(n) * c(n) * t1, t1 = AR's verify time per step on the same prompt. Least squares
over prompts, sizes grouped."""
import json, sys, numpy as np
groups = [(1,1),(2,2),(3,3),(4,4),(5,6),(7,9),(10,13),(14,20),(21,40)]
rows, ys = [], []
for d in sys.argv[1:]:
    b = json.load(open(d + '/bench.json'))
    ar = {(r['set'], r['id']): r for r in b['runs'] if r['method'] == 'ar'}
    for r in b['runs']:
        if r['method'] != 'reader': continue
        a = ar[(r['set'], r['id'])]
        t1 = a['verify_ms'] / a['steps']
        h = r['verified_histogram']
        x = [sum(h[n] for n in range(lo, hi + 1) if n < len(h)) for lo, hi in groups]
        rows.append(x); ys.append(r['verify_ms'] / t1)
X = np.array(rows, float); y = np.array(ys)
keep = X.sum(0) > 0
from numpy.linalg import lstsq
c = np.zeros(len(groups)); c[keep] = lstsq(X[:, keep], y, rcond=None)[0]
for (lo, hi), v, k, cnt in zip(groups, c, keep, X.sum(0)):
    if k: print(f"n {lo}-{hi}: c_real {v:.2f}  ({int(cnt)} steps)")
