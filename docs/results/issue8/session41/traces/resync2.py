import sys, collections
import os
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, '../../../../../scripts')]
from replay_drafts import read_generations, generation_steps, judge
from copy_match import longest_suffix_match
D=16
agg=collections.defaultdict(collections.Counter)
for s,prompt,steps,commits in read_generations(sys.argv[1],'reader'):
    src=None
    output=[t for c in commits for t in c]
    for k,(ctx,step,fut) in enumerate(generation_steps(prompt,steps,commits)):
        depth,matched=judge(step,fut)
        n=len(depth); keep=step.get('keep') or list(range(n))
        cand=max((depth[i] for i in range(n) if matched[i]), default=0)
        rec=max((depth[i] for i in keep if matched[i]), default=0)
        ml, mp = longest_suffix_match(ctx)
        a=agg[s]; a['steps']+=1; a['rec']+=rec; a['cand']+=cand
        if ml>=3: src=mp
        if src is not None and src < len(ctx):
            draft=ctx[src:src+D]
            r=0
            while r<len(draft) and r<len(fut) and draft[r]==fut[r]: r+=1
            if ml<3 and draft:
                kids={step['tokens'][i-1] for i in range(1,n) if step['parents'][i-1]==0}
                agree = draft[0] in kids
                tag = 'agree' if agree else 'new'
                a[tag+'_steps']+=1
                a[tag+'_first_ok']+= r>=1
                if r>cand: a[tag+'_gain_steps']+=1; a[tag+'_gain_tok']+=r-cand
        commit=commits[k+1]
        if src is not None: src+=len(commit)
for s,a in agg.items(): print(s, dict(a))
