import sys, collections
import os
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, '../../../../../scripts')]
from replay_drafts import read_generations, generation_steps, judge
path = sys.argv[1]
CAP = 16
def longest_run(ctx, fut, need_root):
    # longest L: fut[:L] occurs in ctx (if need_root: preceded by ctx[-1] i.e. root)
    best = 0
    root = ctx[-1]
    n = len(ctx)
    for i in range(n - 1):
        if need_root and ctx[i] != root: continue
        s = i + 1 if need_root else i
        L = 0
        while L < CAP and L < len(fut) and s + L < n and ctx[s + L] == fut[L]: L += 1
        best = max(best, L)
    if not need_root:
        for i in range(n):
            L = 0
            while L < CAP and L < len(fut) and i + L < n and ctx[i + L] == fut[L]: L += 1
            best = max(best, L)
    return best
agg = collections.defaultdict(lambda: collections.Counter())
for s, prompt, steps, commits in read_generations(path, 'reader'):
    for ctx, step, fut in generation_steps(prompt, steps, commits):
        depth, matched = judge(step, fut)
        cand = max((depth[i] for i in range(len(depth)) if matched[i]), default=0)
        keep = step.get('keep') or list(range(len(depth)))
        rec = max((depth[i] for i in keep if matched[i]), default=0)
        anyrun = longest_run(ctx, fut, False)
        rootrun = longest_run(ctx, fut, True)
        a = agg[s]
        a['steps'] += 1; a['rec'] += rec; a['cand'] += cand; a['any'] += min(anyrun, CAP); a['root'] += min(rootrun, CAP)
        a['kept'] += len(keep) - 1
        if rootrun >= 3 and cand < rootrun - 1: a['miss_root'] += 1; a['miss_root_tok'] += rootrun - cand
        if cand >= 3 and rec < cand - 1: a['miss_pol'] += 1; a['miss_pol_tok'] += cand - rec
for s, a in agg.items():
    n = a['steps']
    print(s, {k: (round(v / n, 2) if k in ('rec','cand','any','root','kept') else v) for k, v in a.items()})
