"""Per prompt: READER / AR against the best peer's, from one or more bench.json(.gz)."""
import json, gzip, sys, statistics as st
from collections import defaultdict
sp = defaultdict(lambda: defaultdict(list)); info = {}
for p in sys.argv[1:]:
    d = json.load(gzip.open(p) if p.endswith('.gz') else open(p))
    ar = {(x['set'], x['id']): x['tokens_per_s'] for x in d['runs'] if x['method'] == 'ar'}
    for x in d['runs']:
        k = (x['set'], x['id'])
        if x['method'] != 'ar' and k in ar:
            sp[k][x['method']].append(x['tokens_per_s'] / ar[k])
            info[(k, x['method'])] = x
rows = []
for k, m in sp.items():
    r = st.median(m['reader']); peers = {n: st.median(v) for n, v in m.items() if n not in ('reader', 'llama:ar')}
    best = max(peers, key=peers.get)
    rows.append((r / peers[best], k, r, best, peers[best]))
rows.sort()
for q, k, r, b, pb in rows:
    x = info[(k, 'reader')]; y = info[(k, b)]
    print(f"{k[0]:13s} {k[1][:28]:28s} reader {r:.2f} {b[:14]:14s} {pb:.2f} ratio {q:.2f} | reader steps {x['steps']} drafted {x['drafted_tokens']} tok/step {x['generated_tokens']/max(1,x['steps']):.2f} | peer drafted {y['drafted_tokens']} mean_acc {y['mean_accepted']:.2f}")
print(len(rows), 'prompts;', sum(q < 1 for q, *_ in rows), 'behind the best peer')
