import numpy as np, collections
from common import load_gens, stats
gens = load_gens()
table1, table3 = {}, {}
cnt = collections.Counter()
margins = []
for g in gens:
    ctx = list(g["prompt"])
    for t, (s, u) in enumerate(zip(g["gen"], g["u"])):
        k1 = ctx[-1]; k3 = tuple(ctx[-3:])
        r = table3.get(k3)
        src = "ctx3"
        if r is None:
            r = table1.get(k1); src = "tok1"
        row = g["rows"][t]
        if r is not None:
            cnt["have", src] += 1
            w, c = stats(r)
            top = np.argsort(-w)[:4]
            cnt["top1", src] += int(top[0] == s)
            cnt["top4", src] += int(s in top)
            pick = [v for v in top if c[v] <= u < c[v] + w[v]]
            if pick:
                cnt["upick_any", src] += 1
                cnt["upick_hit", src] += int(pick[0] == s)
                v = pick[0]
                m = min(u - c[v], c[v] + w[v] - u)
                margins.append((m, int(pick[0] == s), src))
            cnt["top1_consistent", src] += int(c[top[0]] <= u < c[top[0]] + w[top[0]])
            cnt["top1_consistent_hit", src] += int(c[top[0]] <= u < c[top[0]] + w[top[0]] and top[0] == s)
            cnt["top1_inconsistent_hit", src] += int(not (c[top[0]] <= u < c[top[0]] + w[top[0]]) and top[0] == s)
        table3[k3] = row; table1[k1] = row
        ctx.append(s)
for src in ["ctx3", "tok1"]:
    h = cnt["have", src]
    print(src, "positions", h, "top1 %.3f top4 %.3f | U-pick exists %.3f, hit|exists %.3f, hit overall %.3f" % (
        cnt["top1", src] / h, cnt["top4", src] / h, cnt["upick_any", src] / h,
        cnt["upick_hit", src] / max(1, cnt["upick_any", src]), cnt["upick_hit", src] / h))
    tc = cnt["top1_consistent", src]
    print("   top1 consistent with U: %.3f of positions; top1 hit rate when consistent %.3f, when not %.3f" % (
        tc / h, cnt["top1_consistent_hit", src] / max(1, tc), cnt["top1_inconsistent_hit", src] / max(1, h - tc)))
m = np.array([(a, b) for a, b, s in margins])
for lo, hi in [(0, .01), (.01, .03), (.03, .1), (.1, .2), (.2, 1)]:
    sel = (m[:, 0] >= lo) & (m[:, 0] < hi)
    print(f"margin [{lo},{hi}): n={sel.sum()} hit={m[sel,1].mean():.3f}")
print("--- by rank of candidate within recycled top-4: consistent vs not, hit rates")
table1, table3 = {}, {}
acc = collections.defaultdict(lambda: [0, 0])
for g in gens:
    ctx = list(g["prompt"])
    for t, (s, u) in enumerate(zip(g["gen"], g["u"])):
        k3 = tuple(ctx[-3:]); r = table3.get(k3); src = "ctx3"
        if r is None: r = table1.get(ctx[-1]); src = "tok1"
        if r is not None:
            w, c = stats(r)
            top = np.argsort(-w)[:4]
            for rank, v in enumerate(top):
                cons = c[v] <= u < c[v] + w[v]
                a = acc[(src, rank, cons)]; a[0] += 1; a[1] += int(v == s)
        table3[k3] = g["rows"][t]; table1[ctx[-1]] = g["rows"][t]
        ctx.append(s)
for key in sorted(acc):
    n, h = acc[key]; print(key, n, "%.3f" % (h / n))
