import sys, json, math
from collections import defaultdict
import os; sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../../../../scripts'))
from replay_drafts import read_generations
path=sys.argv[1]
stats=defaultdict(lambda:[0,0,0.0])  # key -> tried, accepted, sum q
SRC={0:'root'}
def bucket(q): return min(int(q*5),4)
for st, prompt, steps, commits in read_generations(path,'reader'):
    prev_state='start'
    for i,s in enumerate(steps):
        commit=commits[i+1]
        par=s['parents']; tok=s['tokens']; src=s['sources']; q=s['q']; keep=s['keep']
        n=len(tok)
        # node indices 1..n ; node i -> par[i-1]
        depth=[0]*(n+1); acc=[True]+[False]*n
        for j in range(1,n+1):
            p=par[j-1]; depth[j]=depth[p]+1
            acc[j]= acc[p] and depth[j]<=len(commit)-1+0 and depth[j]-1 < len(commit) and commit[depth[j]-1]==tok[j-1]
        kept=set(keep) if keep else set(range(n+1))
        for j in range(1,n+1):
            p=par[j-1]
            if not acc[p] or q[j-1]<0: continue
            k=(st if len(sys.argv)>2 else 'all', src[j-1], prev_state, bucket(q[j-1]))
            a=stats[k]; a[0]+=1; a[1]+=acc[j]; a[2]+=q[j-1]
        # state for next step
        kdepth=max(depth[j] for j in kept) if kept else 0
        nacc=len(commit)-1
        prev_state = 'exhausted' if nacc>=kdepth and kdepth>0 else ('nodraft' if kdepth==0 else 'rejected')
keys=sorted(stats)
cur=None
for k in keys:
    t,a,sq=stats[k]
    if t<30: continue
    print(k, f"tried {t:5d} acc {a/t:.2f} meanq {sq/t:.2f}")
