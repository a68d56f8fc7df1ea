import sys
from collections import defaultdict, Counter
from trace_common import occurrences
from replay_drafts import read_generations, generation_steps, judge
path=sys.argv[1]
res=defaultdict(Counter)
for st,prompt,steps,commits in read_generations(path,'reader'):
    for ctx,step,future in generation_steps(prompt,steps,commits):
        depth,matched=judge(step,future)
        orc=max((depth[i] for i in range(len(depth)) if matched[i]),default=0)
        # occurrences of future[:k] in ctx for k up to 32; find longest run and best suffix match among occurrences
        k,m=max(occurrences(ctx,future),default=(0,0))
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
        k,m=max(occurrences(ctx,future),key=lambda km:(km[1]>=3,km[0]),default=(0,0))
        if m>=3 and k>=4 and orc<min(k,maxd):
            c=det[st]; c['n']+=1; c['orc0']+=orc==0; c['short']+= (orc< min(k,maxd)-0)
            # did the tree have first token?
            first=[i for i in range(1,len(depth)) if depth[i]==1 and matched[i]]
            c['has_first']+= bool(first)
for st,c in det.items(): print(st,dict(c))
