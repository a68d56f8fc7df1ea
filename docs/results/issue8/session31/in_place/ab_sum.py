import json,sys,math,glob,os
from collections import defaultdict
out=sys.argv[1]
rows=defaultdict(dict)
for d in sorted(glob.glob(out+'/*_*/bench.json')):
    name=os.path.basename(os.path.dirname(d))
    agg=defaultdict(lambda:[0.0,0.0])
    for r in json.load(open(d))['runs']:
        if r['method'] in ('ar','reader'): agg[r['set']][r['method']=='reader']+=r['decode_ms']
    for s,(a,b) in agg.items(): rows[name][s]=a/b
sets=sorted(next(iter(rows.values())))
print('| run | '+' | '.join(sets)+' | geomean |'); print('|---'*(len(sets)+2)+'|')
for name,v in sorted(rows.items()):
    g=math.exp(sum(math.log(v[s]) for s in sets)/len(sets))
    print(f'| {name} | '+' | '.join(f'{v[s]:.3f}' for s in sets)+f' | {g:.3f} |')
