import re,sys,statistics as st,collections
def load(f):
    rows=[]
    for l in open(f):
        if not l.startswith('TRACE'): continue
        d=dict(kv.split('=') for kv in l.split()[1:])
        lens=[int(x) for x in d['lens'].strip(',').split(',') if x]
        rows.append((int(d['n']),int(d['dec']),lens,float(d['alpha']),int(d['acc']),float(d['pred']),float(d['ms']),float(d['draftms'])))
    return rows
r=load(sys.argv[1]); a=load(sys.argv[2]) if len(sys.argv)>2 else []
# AR baseline ms per n (pure decode steps)
base=collections.defaultdict(list)
for n,dec,lens,al,acc,pr,ms,dm in a:
    if dec==n and all(x==1 for x in lens): base[n].append(ms)
bm={n:st.median(v) for n,v in base.items()}
print('AR ms by n:',{n:(round(v,2),len(base[n])) for n,v in sorted(bm.items())})
g=collections.defaultdict(lambda:[0,0,0,[],[],0])
for n,dec,lens,al,acc,pr,ms,dm in r:
    if dec!=n: continue
    key=(n,tuple(sorted(lens)) if max(lens)>1 else 'AR')
    k=(n,max(lens)>1)
    e=g[k]; e[0]+=1; e[1]+=al; e[2]+=acc; e[3].append(pr); e[4].append(ms/bm.get(n,float('nan'))); e[5]+=dm
for k,e in sorted(g.items()):
    print(k,'steps',e[0],'alpha/step %.2f acc/step %.2f'%(e[1]/e[0],e[2]/e[0]),'pred cost %.3f meas %.3f'%(st.median(e[3]),st.median(e[4])),'draftms/step %.2f'%(e[5]/e[0]))
