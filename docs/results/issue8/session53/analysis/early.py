import sys
sys.path.insert(0, 'scripts')  # run from the repository root
import replay_drafts as R
from collections import defaultdict
agg = defaultdict(lambda: [0, 0, 0, 0.0])  # steps, kept nodes, accepted, priced
for s, p, steps, commits in R.read_generations(sys.argv[1], 'reader'):
    for i, (_, st, fut) in enumerate(R.generation_steps(p, steps, commits)):
        j = R.judge(st, fut)
        keep = set(st['keep'])
        b = min(i, 10) if i < 10 else (10 if i < 30 else 30)
        g = agg[b]; g[0] += 1; g[1] += len(keep) - 1; g[2] += R.accepted_depth(j, keep); g[3] += st['cost'][len(keep) - 1]
for b in sorted(agg):
    n, k, a, c = agg[b]
    print(f"step {b:2d}{'+' if b >= 10 else ' '} steps {n:4d} drafted {k / n:.2f} accepted {a / n:.2f} tokens/price {(1 + a / n) / (c / n):.2f}")
