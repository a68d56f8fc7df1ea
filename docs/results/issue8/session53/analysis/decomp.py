import sys
sys.path.insert(0, 'scripts')  # run from the repository root
import replay_drafts as R
from collections import defaultdict, Counter
gens = list(R.read_generations(sys.argv[1], 'reader'))
agg = defaultdict(lambda: defaultdict(float))
hist = defaultdict(Counter)
for s, p, steps, commits in gens:
    for _, st, fut in R.generation_steps(p, steps, commits):
        j = R.judge(st, fut); cost = st['cost']
        rec = set(st['keep']); orc = R.oracle(st, j)
        rt = 1 + R.accepted_depth(j, rec); ot = 1 + R.accepted_depth(j, orc)
        a = agg[s]
        a['steps'] += 1; a['rec_tok'] += rt; a['rec_cost'] += cost[len(rec) - 1]
        a['orc_tok'] += ot; a['orc_cost'] += cost[len(orc) - 1]
        # oracle tokens but at recorded cost, and recorded tokens at "accepted-only" cost
        a['rec_tok_min_cost'] += cost[rt - 1] if rt - 1 < len(cost) else cost[-1]
        a['avail_gt_rec'] += ot > rt
        a['rec_drafted'] += len(rec) - 1
        a['orc_longer_tok'] += ot - rt
        hist[s][(len(rec) - 1, rt - 1)] += 1
for s, a in agg.items():
    n = a['steps']
    print(s, f"steps {n:.0f} rec tok/step {a['rec_tok']/n:.2f} drafted {a['rec_drafted']/n:.2f} cost/step {a['rec_cost']/n:.3f} | oracle tok/step {a['orc_tok']/n:.2f} cost/step {a['orc_cost']/n:.3f} | steps where a longer path was there {a['avail_gt_rec']/n:.2f} | rec tokens at accepted-only cost: {a['rec_tok']/a['rec_tok_min_cost']:.3f} vs rec {a['rec_tok']/a['rec_cost']:.3f}")
    # drafted 0 steps share
    d0 = sum(v for (d, acc), v in hist[s].items() if d == 0)
    print('   steps drafting nothing', d0 / n, ' accepted-all share', sum(v for (d, acc), v in hist[s].items() if d == acc and d > 0) / n)
