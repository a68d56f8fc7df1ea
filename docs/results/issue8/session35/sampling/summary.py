import json,statistics as st,sys,collections
base=sys.argv[1]
def speed(path):
    d=json.load(open(path)); out={}; ident=[0,0]
    by=collections.defaultdict(dict)
    for r in d['runs']:
        by[r['set']].setdefault(r['method'],[]).append(r['tokens_per_s'])
        if r['method']=='reader': ident[0]+=r['identical_to_ar']; ident[1]+=1
    for s,m in by.items(): out[s]=st.median(m['reader'])/st.median(m['ar'])
    return out,ident
g,gi=speed(base+'/greedy/bench.json')
S=[speed(f'{base}/{s}/bench.json') for s in (1,2,3)]
print('identical to AR: greedy %d/%d, sampled %d/%d'%(gi[0],gi[1],sum(x[1][0] for x in S),sum(x[1][1] for x in S)))
print('set | sampled median [range] | greedy same 6 | % of it')
for s in g:
    v=[x[0][s] for x in S]
    print('%s | %.2fx [%.2f-%.2f] | %.2fx | %.0f%%'%(s,st.median(v),min(v),max(v),g[s],100*st.median(v)/g[s]))
