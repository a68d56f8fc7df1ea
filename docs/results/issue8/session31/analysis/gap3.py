import sys
from collections import defaultdict, Counter
from trace_common import occurrences
from replay_drafts import read_generations, generation_steps, judge
path=sys.argv[1]
det=defaultdict(Counter)
for st,prompt,steps,commits in read_generations(path,'reader'):
    for ctx,step,future in generation_steps(prompt,steps,commits):
        depth,matched=judge(step,future)
        orc=max((depth[i] for i in range(len(depth)) if matched[i]),default=0)
        n=len(ctx)
        k,m=max(occurrences(ctx,future),default=(0,0))
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
