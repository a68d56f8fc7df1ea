import json,sys,glob,math,statistics as st,re
prof=json.load(open('/work/main/models/SmolLM2-135M-Instruct.Q8_0.profile.json'))
curve=dict((n,c) for n,c in prof['cost'][1]['curve'])  # context 1024
def c(n):
    if n in curve: return curve[n]
    ks=sorted(curve); lo=max(k for k in ks if k<n); hi=min(k for k in ks if k>n)
    return curve[lo]+(curve[hi]-curve[lo])*(n-lo)/(hi-lo)
def load(d):
    j=json.load(open(d+'/bench.json'))
    res={}
    for x in j['runs']:
        k=(x['set'],x['method']); a=res.setdefault(k,dict(gen=0,steps=0,cost=0,ms=0,dr=0,tps=[]))
        a['gen']+=x['generated_tokens']; a['steps']+=x['steps']; a['ms']+=x['decode_ms']; a['dr']+=x['drafted_tokens']
        h=x.get('verified_histogram') or ([0,x['steps']] if x['method']=='ar' else None)
        a['cost']+=sum(cnt*c(n) for n,cnt in enumerate(h) if n>0 and cnt)
        a['tps'].append(x['tokens_per_s'])
    md=open(d+'/bench.md').read()
    sp={}
    for line in md.splitlines():
        m=re.match(r'\| (\w+) \| reader \| [\d.]+ \| ([\d.]+)x',line)
        if m: sp[m.group(1)]=float(m.group(2))
    return res,sp
for d in sys.argv[1:]:
    res,sp=load(d)
    sets=sorted({k[0] for k in res})
    model=[];wall=[]
    row=[]
    for s in sets:
        a=res[(s,'ar')]; r=res[(s,'reader')]
        ms=(r['gen']/r['cost'])/(a['gen']/a['cost'])
        model.append(ms); wall.append(sp.get(s,float('nan')))
        row.append(f"{s[:6]} m{ms:.3f} w{sp.get(s,0):.2f} d/s{r['dr']/r['steps']:.2f} t/s{r['gen']/r['steps']:.2f}")
    g=lambda v: math.exp(sum(map(math.log,v))/len(v))
    print(d.split('/')[-1], f"model-geo {g(model):.4f} wall-geo {g(wall):.4f} |", ' | '.join(row))
