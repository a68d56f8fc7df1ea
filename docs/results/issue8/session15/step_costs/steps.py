import sys,statistics as st,json
rows=[l.split() for l in open(sys.argv[1]) if l.startswith('STEP ')]
gens=[];cur=[];last=-1
for _,n,root,dec,tot in rows:
    n=int(n);root=int(root);dec=float(dec);tot=float(tot)
    if root<last: gens.append(cur);cur=[]
    cur.append((n,root,dec,tot));last=root
gens.append(cur)
ar=[g for g in gens if all(s[0]==1 for s in g)]
rd=[g for g in gens if any(s[0]>1 for s in g)]
print(len(ar),'AR gens',len(rd),'reader gens')
prof=json.load(open('/work/main/models/SmolLM2-135M-Instruct.Q8_0.profile.json'))
curve=dict(prof['cost'][0]['curve'])
# AR per-step time by context bucket
def bucket(root): return min(root//256,3)
arb={}
for g in ar:
    for n,root,dec,tot in g: arb.setdefault(bucket(root),[]).append((dec,tot))
base={b:(st.median([x[0] for x in v]),st.median([x[1] for x in v])) for b,v in arb.items()}
print('AR median ms by ctx bucket (decode,total):',{b:('%.2f'%v[0],'%.2f'%v[1]) for b,v in sorted(base.items())})
by={}
for g in rd:
    for n,root,dec,tot in g:
        b=bucket(root); 
        if b not in base: continue
        by.setdefault(min(n,17),[]).append((dec/base[b][0],tot/base[b][1]))
print(' n  steps  decode/AR  total/AR  curve')
for n in sorted(by):
    v=by[n]
    if len(v)<5: continue
    print('%2d %6d  %.3f      %.3f     %.3f'%(n,len(v),st.median([x[0] for x in v]),st.median([x[1] for x in v]),curve.get(n,float('nan'))))
