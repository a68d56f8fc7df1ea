import sys
from collections import defaultdict, Counter
from trace_common import latest_copy
from replay_drafts import read_generations, generation_steps, judge
path=sys.argv[1]; anchor_depth=int(sys.argv[2]) if len(sys.argv)>2 else 2
res=defaultdict(Counter)
for st,prompt,steps,commits in read_generations(path,'reader'):
    for ctx,step,future in generation_steps(prompt,steps,commits):
        depth,matched=judge(step,future)
        orc=max((depth[i] for i in range(len(depth)) if matched[i]),default=0)
        # speculator first-child chain
        par=step['parents']; tok=step['tokens']; src=step['sources']
        chain=[]; node=0
        while True:
            kids=[i for i in range(1,len(depth)) if par[i-1]==node and src[i-1]==1]
            if not kids or depth[kids[0]]>anchor_depth: break
            node=kids[0]; chain.append(tok[node-1])
        c=res[st]; c['steps']+=1; c['orc']+=orc
        if not chain: continue
        m,cont=latest_copy(ctx+chain)
        path_=chain+cont
        k=0
        while k<len(path_) and k<len(future) and path_[k]==future[k]: k+=1
        c['anchored']+=1
        c['new_orc']+=max(orc,k)-orc
        c['gain_steps']+= k>orc
        c[f'm{min(m,4)}']+=1
        c[f'm{min(m,4)}_acc']+= k>len(chain)
for st,c in res.items():
    print(st, f"steps {c['steps']} orc/step {c['orc']/c['steps']:.2f} +oracle tokens {c['new_orc']} ({c['new_orc']/c['orc']*100:.0f}%) gain steps {c['gain_steps']}", {k:v for k,v in c.items() if k.startswith('m')})
