import numpy as np, collections
from scipy.stats import norm
from sklearn.metrics import roc_auc_score
from common import load_gens, stats
gens = load_gens()
table1, table3 = {}, {}
X = []  # (lo, hi, u, share among top4, hit, src, rank)
for g in gens:
    ctx = list(g["prompt"])
    for t, (s, u) in enumerate(zip(g["gen"], g["u"])):
        k3 = tuple(ctx[-3:]); r = table3.get(k3); src = 3
        if r is None: r = table1.get(ctx[-1]); src = 1
        if r is not None:
            w, c = stats(r)
            top = np.argsort(-w)[:4]
            sh = w[top] / w[top].sum()
            for rank, v in enumerate(top[:2]):
                X.append((c[v], c[v] + w[v], u, sh[rank], int(v == s), src, rank))
        table3[k3] = g["rows"][t]; table1[ctx[-1]] = g["rows"][t]
        ctx.append(s)
X = np.array(X)
lo, hi, u, sh, hit = X[:, 0], X[:, 1], X[:, 2], X[:, 3], X[:, 4]
print("n", len(X), "hit rate", hit.mean())
print("AUC share-only %.3f  width-only %.3f" % (roc_auc_score(hit, sh), roc_auc_score(hit, hi - lo)))
ind = ((u >= lo) & (u < hi)).astype(float)
print("AUC indicator %.3f" % roc_auc_score(hit, ind + 1e-3 * sh))
for sigma in [0.01, 0.02, 0.05, 0.1, 0.2, 0.3]:
    p = norm.cdf((u - lo) / sigma) - norm.cdf((u - hi) / sigma)
    # bucketed at 0.3/0.6/0.9 like strength
    b = np.digitize(p, [0.3, 0.6, 0.9])
    print("sigma %.2f AUC %.3f  bucket rates %s counts %s" % (sigma, roc_auc_score(hit, p),
          [round(hit[b == k].mean(), 3) if (b == k).any() else None for k in range(4)], [int((b == k).sum()) for k in range(4)]))
b = np.digitize(sh, [0.3, 0.6, 0.9])
print("share buckets rates", [round(hit[b == k].mean(), 3) for k in range(4)], [int((b == k).sum()) for k in range(4)])
