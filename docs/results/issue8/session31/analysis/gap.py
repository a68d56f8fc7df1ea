import sys, json
from collections import defaultdict, Counter
import os; sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../../../../scripts'))
from replay_drafts import read_generations, generation_steps, judge, accepted_depth
path=sys.argv[1]
def longest_run(ctx, future, maxlen=32):
    # longest k such that future[:k] appears in ctx (contiguous), brute force
    best=0
    s=' '+' '.join(map(str,ctx))+' '
    for k in range(1,min(maxlen,len(future))+1):
        pat=' '+' '.join(map(str,future[:k]))+' '
        if pat in s: best=k
        else: break
    return best
tot=defaultdict(Counter)
for st,prompt,steps,commits in read_generations(path,'reader'):
    for ctx,step,future in generation_steps(prompt,steps,commits):
        depth,matched=judge(step,future)
        rec=accepted_depth((depth,matched), set(step['keep']))
        orc=max((depth[i] for i in range(len(depth)) if matched[i]),default=0)
        # copy bound: longest run of future found in ctx (following any occurrence) -- approximate: future[:k] in ctx
        lr=longest_run(ctx,future)
        c=tot[st]
        c['steps']+=1; c['rec']+=rec; c['orc']+=orc; c['lr']+=lr
        c['rec<orc']+= rec<orc
        c['orc<lr']+= orc<lr
        c['lr>=4 & orc<lr'] += (lr>=4 and orc<lr)
        c['kept']+=len(step['keep'])-1
for st,c in tot.items():
    n=c['steps']
    print(f"{st:14s} steps {n:4d} rec/step {c['rec']/n:.2f} oracle/step {c['orc']/n:.2f} ctxrun/step {c['lr']/n:.2f} kept/step {c['kept']/n:.2f} rec<orc {c['rec<orc']/n:.2f} orc<ctxrun {c['orc<lr']/n:.2f} (run>=4: {c['lr>=4 & orc<lr']/n:.2f})")
