import sys
from collections import defaultdict, Counter
import os; sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../../../../scripts'))
from replay_drafts import read_generations, generation_steps, judge
path=sys.argv[1]
det=defaultdict(Counter)
for st,prompt,steps,commits in read_generations(path,'reader'):
    for ctx,step,future in generation_steps(prompt,steps,commits):
        depth,matched=judge(step,future)
        orc=max((depth[i] for i in range(len(depth)) if matched[i]),default=0)
        n=len(ctx); best=(0,0); occ=Counter()
        for p in range(n):
            k=0
            while k<len(future) and k<32 and p+k<n and ctx[p+k]==future[k]: k+=1
            if k==0: continue
            m=0
            while m<p and ctx[p-1-m]==ctx[n-1-m] and m<16: m+=1
            if (k,m)>best: best=(k,m)
        k,m=best
        if k>=4 and orc<k and m<=2:
            c=det[st]; c['n']+=1
            c['orc>=1']+=orc>=1; c['orc>=2']+=orc>=2
            # occurrences of future[:2] in ctx and number of distinct continuations
            f2=future[:2]
            conts=Counter(tuple(ctx[p+2:p+6]) for p in range(n-1) if ctx[p:p+2]==f2)
            c['f2 occurs']+= bool(conts)
            c['f2 unique cont']+= len(conts)==1
            c['lost_tokens']+=k-orc
for st,c in det.items(): print(st,dict(c))
