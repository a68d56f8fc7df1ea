import json,collections,sys,math
sys.path.insert(0,'/tmp/ab')
c={1:1,2:1.298,3:1.608,4:1.855,8:2.364,16:2.971,32:4.9}
xs=sorted(c)
def cost(n):
    for a,b in zip(xs,xs[1:]):
        if a<=n<=b: return c[a]+(c[b]-c[a])*(n-a)/(b-a)
    return c[xs[-1]]
j=json.load(open(sys.argv[1]+'/bench.json'))
agg=collections.defaultdict(lambda: collections.defaultdict(float))
for r in j['runs']:
    a=agg[r['set']][r['method']]
    a+=0
    d=agg[r['set']]
    if r['method']=='ar': d['ar']+=r['steps']; continue
    d['real']+=sum(k*cost(n) for n,k in enumerate(r['verified_histogram']) if n>0)
    d['trunc']+=sum(k*cost(max(n,1)) for n,k in enumerate(r['accepted_histogram']))
    d['steps']+=r['steps']
for s,d in sorted(agg.items()):
    print(f"{s:14s} priced {d['ar']/d['real']:.3f} perfect-truncation {d['ar']/d['trunc']:.3f}")
