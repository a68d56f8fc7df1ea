"""In-sample upper estimate: path policy with q replaced by the empirical acceptance of its
tenth (per set, fitted on the same trace). If even this gains little, calibration is not the lever."""
import sys, math
sys.path.insert(0, 'scripts')  # run from the repository root
import replay_drafts as R
from collections import defaultdict
path = sys.argv[1]
gens = list(R.read_generations(path, 'reader'))
cal = defaultdict(lambda: [[0, 0] for _ in range(10)])
bysrc = defaultdict(lambda: [[0, 0] for _ in range(10)])
for s, p, steps, commits in gens:
    for _, st, fut in R.generation_steps(p, steps, commits):
        j = R.judge(st, fut)
        R.calibration(st, j, cal[s])
        _, m = j
        for i, (par, q, src) in enumerate(zip(st['parents'], st['q'], st['sources']), 1):
            if m[par] and q >= 0:
                c = bysrc[(s, src)][min(9, int(q * 10))]; c[0] += 1; c[1] += m[i]
maps = {s: [(ok + 1) / (n + 2) for n, ok in cells] for s, cells in cal.items()}
tot = defaultdict(lambda: defaultdict(lambda: [0., 0.]))
for s, p, steps, commits in gens:
    for _, st, fut in R.generation_steps(p, steps, commits):
        j = R.judge(st, fut)
        cost = st['cost']
        if not all(q >= 0 for q in st['q']):
            continue
        st2 = dict(st); st2['q'] = [maps[s][min(9, int(q * 10))] for q in st['q']]
        for name, keep in [('recorded', set(st['keep'])),
                           ('path', R.best_path(st, lambda e, n: e / cost[n - 1])),
                           ('calpath', R.best_path(st2, lambda e, n: e / cost[n - 1])),
                           ('oracle', R.oracle(st, j))]:
            tot[s][name][0] += 1 + R.accepted_depth(j, keep)
            tot[s][name][1] += cost[len(keep) - 1]
for s, d in tot.items():
    b = d['recorded'][0] / d['recorded'][1]
    print(s, ' '.join(f"{k} {v[0]/v[1]:.3f} ({v[0]/v[1]/b:.3f})" for k, v in d.items()))
for (s, src), cells in sorted(bysrc.items()):
    print(s, R.SOURCE_NAMES[src], ' '.join(f"{ok/n:.2f}({n})" if n else '-' for n, ok in cells))
