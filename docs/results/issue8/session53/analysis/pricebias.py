"""Per set: what READER's steps cost (its decode_ms) against what the policy priced them
(sum of the trace's cost[len(keep)-1], in units of one AR step = AR's decode_ms per step of the same prompt)."""
import gzip, json, sys
sys.path.insert(0, 'scripts')  # run from the repository root
import replay_drafts as R
from collections import defaultdict
bench = json.load(gzip.open(sys.argv[1] + '/bench.json.gz'))
ar = {(x['set'], x['id']): x for x in bench['runs'] if x['method'] == 'ar'}
rd = {(x['set'], x['id']): x for x in bench['runs'] if x['method'] == 'reader'}
# generations in trace order per set, matched to bench runs by order of ids within the set
gens = defaultdict(list)
for s, p, steps, commits in R.read_generations(sys.argv[1] + '/drafts.jsonl.gz', 'reader'):
    gens[s].append((steps, commits))
ids = defaultdict(list)
for x in bench['runs']:
    if x['method'] == 'reader': ids[x['set']].append(x['id'])
agg = defaultdict(lambda: [0.0, 0.0, 0, 0])
for s, lst in gens.items():
    for (steps, commits), i in zip(lst, ids[s]):
        a = ar[(s, i)]; r = rd[(s, i)]
        if len(steps) != r['steps']:
            continue
        ar_step = a['decode_ms'] / max(1, a['steps'])
        priced = sum(st['cost'][len(st['keep']) - 1] for st in steps)
        g = agg[s]; g[0] += priced * ar_step; g[1] += r['decode_ms']; g[2] += 1; g[3] += len(steps)
for s, (p, real, n, st) in agg.items():
    print(f"{s:14s} prompts {n:2d} steps {st:4d}  real / priced {real / p:.3f}")
