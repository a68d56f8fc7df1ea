import json,sys,statistics as st
from collections import defaultdict
def load(p):
    d=json.load(open(p+'/bench.json')); agg=defaultdict(lambda: defaultdict(float))
    for r in d['runs']:
        if r['method']=='ar' or 'steps' not in r: continue
        a=agg[r['set']]; a['steps']+=r['steps']; a['drafted']+=r['drafted_tokens']; a['gen']+=r['generated_tokens']; a['ms']+=r['decode_ms']+r.get('draft_ms',0)+r.get('bookkeeping_ms',0)
        for k,v in r['drafted_by_source'].items(): a['d_'+k]+=v
        for k,v in r['accepted_by_source'].items(): a['a_'+k]+=v
    return agg
for p in sys.argv[1:]:
    agg=load(p); print(p)
    for s,a in agg.items():
        n=a['steps']; print(f"  {s[:10]:10} tok/step {a['gen']/n:.2f} drafted/step {a['drafted']/n:.2f} ms/step {a['ms']/n:.2f} tok/ms {a['gen']/a['ms']:.3f} spec {a['d_speculator']/n:.2f}->{a['a_speculator']/n:.2f} wid {a['d_widening']/n:.2f}->{a['a_widening']/n:.2f} deep {a['d_deepening']/n:.2f}->{a['a_deepening']/n:.2f}")
