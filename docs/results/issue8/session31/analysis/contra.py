import sys
from collections import defaultdict, Counter
import os; sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../../../../scripts'))
from replay_drafts import read_generations, generation_steps, judge
path=sys.argv[1]
res=defaultdict(lambda:[0,0,0.0])
for st,prompt,steps,commits in read_generations(path,'reader'):
    for ctx,step,future in generation_steps(prompt,steps,commits):
        depth,matched=judge(step,future)
        par=step['parents']; src=step['sources']; q=step['q']
        if any(x<0 for x in q): continue
        kids=[i for i in range(1,len(depth)) if par[i-1]==0]
        spec=[i for i in kids if src[i-1]==1]
        sq = q[spec[0]-1] if spec else None
        for i in kids:
            if src[i-1]==1: continue
            sb = 'nospec' if sq is None else ('spec q<0.3' if sq<0.3 else 'spec q0.3-0.6' if sq<0.6 else 'spec q>=0.6')
            key=(src[i-1], sb, min(int(q[i-1]*5),4))
            r=res[key]; r[0]+=1; r[1]+=matched[i]; r[2]+=q[i-1]
for k in sorted(res):
    t,a,s=res[k]
    if t>=20: print(k, t, f"acc {a/t:.2f} meanq {s/t:.2f}")
