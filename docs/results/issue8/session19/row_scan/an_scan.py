import json,collections,math,statistics as st,sys,glob
def load(d):
    j=json.load(open(d+'/bench.json')); agg=collections.defaultdict(lambda: collections.defaultdict(lambda:[0.0]*6))
    ident=0; n=0
    for r in j['runs']:
        a=agg[r['set']][r['method']]
        a[0]+=r['decode_ms']; a[1]+=r['bookkeeping_ms']; a[2]+=r['draft_ms']; a[3]+=r.get('steps',0); a[4]+=r['verify_ms']; a[5]+=r['generated_tokens']
        if r['method']=='reader': n+=1; ident+=bool(r['identical_to_ar'])
    return agg,ident,n
gm=lambda v: math.exp(sum(map(math.log,v))/len(v))
res=collections.defaultdict(dict)
for d in sorted(glob.glob('/tmp/ab/rs19scan_r*_*')):
    if d.endswith('.log'): continue
    r,v=d.split('_')[-2:]
    agg,ident,n=load(d)
    w=[agg[s]['ar'][0]/agg[s]['reader'][0] for s in agg]
    R=[agg[s]['reader'] for s in agg]; A=[agg[s]['ar'] for s in agg]
    bk_r=sum(x[1] for x in R)/sum(x[3] for x in R); bk_a=sum(x[1] for x in A)/sum(x[5] for x in A)
    dr=sum(x[2] for x in R)/sum(x[3] for x in R)
    ovh_r=sum(x[0]-x[4] for x in R)/sum(x[3] for x in R); ovh_a=sum(x[0]-x[4] for x in A)/sum(x[5] for x in A)
    res[r][v]=gm(w)
    print(f'{r} {v}: READER/AR wall geomean {gm(w):.4f} | per step: reader bookkeeping {bk_r*1000:.0f} us, draft {dr*1000:.0f} us, decode-verify {ovh_r*1000:.0f} us; ar bookkeeping {bk_a*1000:.0f} us/token, decode-verify {ovh_a*1000:.0f} us | identical {ident}/{n}')
rat=[res[r]['new']/res[r]['old'] for r in res if 'new' in res[r] and 'old' in res[r]]
if rat: print('new/old per round:', ' '.join('%.4f'%x for x in rat), 'median %.4f'%st.median(rat))
