"""A run priced as it ran, and as if it had drafted exactly the tokens that were accepted
(each step charged the cost of the tokens it committed).  Usage: python3 trunc.py RUN_DIR"""
import collections
import json
import sys

from an import step_cost

j = json.load(open(sys.argv[1] + '/bench.json'))
agg = collections.defaultdict(lambda: collections.defaultdict(float))
for r in j['runs']:
    d = agg[r['set']]
    if r['method'] == 'ar':
        d['ar'] += r['steps']
        continue
    d['real'] += sum(k * step_cost(n) for n, k in enumerate(r['verified_histogram']) if n > 0)
    d['trunc'] += sum(k * step_cost(max(n, 1)) for n, k in enumerate(r['accepted_histogram']))
for s, d in sorted(agg.items()):
    print(f"{s:14s} priced {d['ar'] / d['real']:.3f} perfect-truncation {d['ar'] / d['trunc']:.3f}")
