import json,statistics,sys
d=sys.argv[1]; rep=sys.argv[2]
def sp(path):
    b=json.load(open(path+'/bench.json'))
    out={}
    for r in b['summary']:
        if r['method']=='reader': out[r['set']]=r['speedup']
    ident=sum(x['identical_to_ar'] for x in b['runs'] if x['method']=='reader'); n=sum(1 for x in b['runs'] if x['method']=='reader')
    return out,ident,n
g,gi,gn=sp(d+'/greedy')
seeds=[sp(f'{d}/{s}') for s in (1,2,3)]
rept=[l for l in open(rep) if l.startswith('| ')]
repmed={}
for l in rept:
    c=[x.strip() for x in l.split('|')]
    if c[1] in g: repmed[c[1]]=float(c[3].rstrip('x'))
print(f"identical to AR: greedy {gi}/{gn}, sampled {sum(s[1] for s in seeds)}/{sum(s[2] for s in seeds)}")
print("set | sampled median [range] | % of report greedy | greedy same 6 | % of it")
for s in g:
    v=[x[0][s] for x in seeds]; m=statistics.median(v)
    print(f"{s} | {m:.2f}x [{min(v):.2f}-{max(v):.2f}] | {100*m/repmed[s]:.0f}% | {g[s]:.2f}x | {100*m/g[s]:.0f}%")
