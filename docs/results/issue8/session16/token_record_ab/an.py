import json,collections,sys,math,os
c={1:1,2:1.298,3:1.608,4:1.855,8:2.364,16:2.971,32:4.9}
xs=sorted(c)
def cost(n):
    for a,b in zip(xs,xs[1:]):
        if a<=n<=b: return c[a]+(c[b]-c[a])*(n-a)/(b-a)
    return c[xs[-1]]
g=lambda v: math.exp(sum(map(math.log,v))/len(v))
for f in sys.argv[1:]:
    j=json.load(open(f+'/bench.json'))
    agg=collections.defaultdict(lambda: collections.defaultdict(lambda:[0,0,0,0,0]))
    for r in j['runs']:
        a=agg[r['set']][r['method']]
        h=r.get('verified_histogram') or [0,r['steps']]
        a[0]+=r['decode_ms']; a[1]+=r['generated_tokens']; a[2]+=sum(k*cost(n) for n,k in enumerate(h) if n>0)
        a[3]+=r['drafted_tokens']; a[4]+=r['steps']
    wall=[];pr=[];row=[]
    for s in sorted(agg):
        A=agg[s]['ar']; R=agg[s]['reader']
        w=A[0]/R[0]; p=A[2]/R[2]
        wall.append(w); pr.append(p); row.append(f"{s[:5]} w{w:.3f} p{p:.3f}")
    dps=sum(agg[s]['reader'][3] for s in agg)/sum(agg[s]['reader'][4] for s in agg)
    print(f"{os.path.basename(f):10s} wall {g(wall):.4f} priced {g(pr):.4f} d/s {dps:.2f} | "+" ".join(row))
