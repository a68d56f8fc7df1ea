"""READER's one-token steps against AR's step at the same position of the same prompt, by how
many one-token steps separate them from READER's last longer step (run0: right after it), and
each size's step over AR's at that position. Reads the temporary log of steplog.diff.
usage: fade.py STEPLOG
"""
import sys, statistics as st
from collections import defaultdict
gens=[]; cur=None
for line in open(sys.argv[1]):
    f=line.split(); n,pos,dr=int(f[0]),int(f[1]),int(f[2]); ms=float(f[3])
    if n<=0:
        if cur is None or cur['steps']:
            cur={'drafter':dr,'steps':[],'prompt':0}; gens.append(cur)
        cur['prompt']+= -n; continue
    cur['steps'].append((n,pos,ms))
gens=gens[2:]
by=defaultdict(dict)
for g in gens: by[g['prompt']][g['drafter']]=g
r=defaultdict(list); rl=defaultdict(list)
for p,d in by.items():
    if 0 not in d or 1 not in d: continue
    ar={pos:ms for n,pos,ms in d[0]['steps']}
    run=0
    for i,(n,pos,ms) in enumerate(d[1]['steps']):
        if pos in ar:
            k = 'n=%d'%min(n,9)
            rl[k].append(ms/ar[pos])
        if n==1 and pos in ar and i>0:
            key='run0' if run==0 else 'run1' if run==1 else 'run2-3' if run<=3 else 'run4-7' if run<=7 else 'run8+'
            r[key].append(ms/ar[pos])
        run = run+1 if n==1 else 0
for k,v in sorted(r.items()): print(k,len(v),'median %.3f mean %.3f'%(st.median(v),st.mean(v)))
for k,v in sorted(rl.items()): print(k,len(v),'median %.3f'%(st.median(v)))
