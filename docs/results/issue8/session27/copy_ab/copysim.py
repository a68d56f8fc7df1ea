# Offline (usage: .venv/bin/python copysim.py TRACE.jsonl.gz CAL_SETS; MODE=max|keep): add the positional copy chain (longest suffix match in prompt+output, most recent
# occurrence, up to 16 tokens) to READER's recorded candidate tree, weigh its nodes by a
# conditional-acceptance table learned on CAL sets, re-choose by Theorem 1 over paths, and
# compare tokens per unit cost with what was recorded.
import sys, math, numpy as np
import os
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '../../../../../scripts')); sys.path.insert(0, HERE)
import replay_drafts as R
from locality import judged_steps, recent_copy, common
from collections import defaultdict

def lbucket(L): return 0 if L <= 1 else 1 if L == 2 else 2 if L == 3 else 3 if L < 8 else 4 if L < 16 else 5
def dbucket(d): return min(d, 6) - 1

def steps_of(path):
    for set_name, ctx, step, future, _, _ in judged_steps(path):
        draft, L = recent_copy(ctx, maxlen=32, depth=16)
        yield set_name, step, future, draft, L

import os
MODE = os.environ.get('MODE', 'max')
path = sys.argv[1]
cal_sets = set(sys.argv[2].split(',')) if len(sys.argv) > 2 else None
data = list(steps_of(path))
# conditional acceptance table on the calibration sets
tab = defaultdict(lambda: [1, 2])  # prior 0.5 with weight 2
for set_name, step, future, draft, L in data:
    if cal_sets is not None and set_name not in cal_sets: continue
    acc = common(draft, future)
    for d in range(1, len(draft) + 1):
        if d - 1 > acc: break
        cell = tab[(lbucket(L), dbucket(d))]
        cell[1] += 1; cell[0] += d <= acc
print('table (rows: match length 1,2,3,4-7,8-15,16+; cols: depth 1..6+)')
for lb in range(6):
    print(lb, ' '.join(f"{tab[(lb,db)][0]/tab[(lb,db)][1]:.2f}({tab[(lb,db)][1]-2})" for db in range(6)))

def union(step, draft, L):
    parents, tokens, q = list(step['parents']), list(step['tokens']), list(step['q'])
    kids = defaultdict(dict)
    for i, (p, t) in enumerate(zip(parents, tokens), 1): kids[p][t] = i
    node = 0
    for d, t in enumerate(draft, 1):
        qc = tab[(lbucket(L), dbucket(d))]; qc = qc[0] / qc[1]
        if t in kids[node]:
            node = kids[node][t]
            if MODE == 'max': q[node - 1] = max(q[node - 1], qc)
        else:
            parents.append(node); tokens.append(t); q.append(qc)
            new = len(tokens); kids[node][t] = new; node = new
    return {'parents': parents, 'tokens': tokens, 'q': q, 'cost': step['cost']}

tot = defaultdict(lambda: [0.0, 0.0, 0.0, 0.0, 0.0, 0.0])
for set_name, step, future, draft, L in data:
    cost = step['cost']
    weighed = all(q >= 0 for q in step['q'])
    rec = set(step['keep'])
    j = R.judge(step, future)
    t = tot[set_name]
    t[0] += 1 + R.accepted_depth(j, rec); t[1] += cost[len(rec) - 1]
    if weighed and len(cost) >= 2:
        u = union(step, draft, L)
        # cost array may be shorter than the union's path: extend linearly
        c = list(cost)
        while len(c) < 40: c.append(c[-1] + (c[-1] - c[-2]))
        u['cost'] = c
        keep = R.best_path(u, lambda e, n: e / c[n - 1])
        ju = R.judge(u, future)
        t[2] += 1 + R.accepted_depth(ju, keep); t[3] += c[len(keep) - 1]
        t[4] += 1 + max(d for d, m in zip(*ju) if m); t[5] += 1
    else:
        t[2] += 1 + R.accepted_depth(j, rec); t[3] += cost[len(rec) - 1]
logs = []
for k, t in tot.items():
    r = (t[2] / t[3]) / (t[0] / t[1]); logs.append(math.log(r))
    print(f"{k:14s} recorded {t[0]/t[1]:.3f}  with copy chain {t[2]/t[3]:.3f}  ratio {r:.3f}" + ("  (calibration set)" if k in cal_sets else ""))
print('geomean ratio', round(math.exp(sum(logs) / len(logs)), 4))
