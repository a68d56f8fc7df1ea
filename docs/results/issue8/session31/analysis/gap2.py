import sys
from collections import defaultdict, Counter
import os; sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../../../../scripts'))
from replay_drafts import read_generations, generation_steps, judge
path=sys.argv[1]
res=defaultdict(Counter)
for st,prompt,steps,commits in read_generations(path,'reader'):
    for ctx,step,future in generation_steps(prompt,steps,commits):
        depth,matched=judge(step,future)
        orc=max((depth[i] for i in range(len(depth)) if matched[i]),default=0)
        # occurrences of future[:k] in ctx for k up to 32; find longest run and best suffix match among occurrences
        n=len(ctx); best=(0,0)
        for p in range(n):
            k=0
            while k<len(future) and k<32 and p+k<n and ctx[p+k]==future[k]: k+=1
            if k==0: continue
            m=0
            while m<p and ctx[p-1-m]==ctx[n-1-m] and m<16: m+=1
            # p-1-m .. vs current suffix: ctx[n-1] is root (last token). occurrence at p means ctx[p-1] should equal ctx[n-1]
            if (k,m)>best: best=(k,m)
        k,m=best
        if k>=4 and orc<k:
            res[st][min(m,5)]+=1
            res[st]['n']+=1
            res[st]['orc=0']+= orc==0
for st,c in res.items():
    print(st, c['n'], 'orc=0:',c['orc=0'], 'suffix match at best occurrence:', {m:c[m] for m in range(6)})
print('--- m>=3 detail')
det=defaultdict(Counter)
for st,prompt,steps,commits in read_generations(path,'reader'):
    for ctx,step,future in generation_steps(prompt,steps,commits):
        depth,matched=judge(step,future)
        orc=max((depth[i] for i in range(len(depth)) if matched[i]),default=0)
        maxd=max(depth)
        n=len(ctx); best=(0,0)
        for p in range(n):
            k=0
            while k<len(future) and k<32 and p+k<n and ctx[p+k]==future[k]: k+=1
            if k==0: continue
            m=0
            while m<p and ctx[p-1-m]==ctx[n-1-m] and m<16: m+=1
            if (m>=3, k)>(best[1]>=3, best[0]): best=(k,m)
        k,m=best
        if m>=3 and k>=4 and orc<min(k,maxd):
            c=det[st]; c['n']+=1; c['orc0']+=orc==0; c['short']+= (orc< min(k,maxd)-0)
            # did the tree have first token?
            first=[i for i in range(1,len(depth)) if depth[i]==1 and matched[i]]
            c['has_first']+= bool(first)
for st,c in det.items(): print(st,dict(c))
