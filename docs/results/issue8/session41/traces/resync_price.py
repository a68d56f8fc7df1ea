# Price a copy pointer that survives substitutions: when the context's suffix match is short
# (< 3) and the pointer's next token is already a drafted child of the root, verify the
# pointer's next D tokens too (under that child). Tokens per priced cost vs recorded.
import sys, collections
import os
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, '../../../../../scripts')]
from replay_drafts import read_generations, generation_steps, judge
from copy_match import longest_suffix_match
D = int(sys.argv[2]) if len(sys.argv) > 2 else 8
agg=collections.defaultdict(collections.Counter)
for s,prompt,steps,commits in read_generations(sys.argv[1],'reader'):
    src=None
    for k,(ctx,step,fut) in enumerate(generation_steps(prompt,steps,commits)):
        depth,matched=judge(step,fut)
        n=len(depth); keep=step.get('keep') or list(range(n))
        rec=max((depth[i] for i in keep if matched[i]), default=0)
        cost=step['cost']
        a=agg[s]; a['tok']+=1+rec; a['cost']+=cost[len(keep)-1]
        ml, mp = longest_suffix_match(ctx)
        if ml>=3: src=mp
        new_tok, new_size = 1+rec, len(keep)
        if ml<3 and src is not None and src<len(ctx):
            draft=ctx[src:src+D]
            kept_kids={step['tokens'][i-1]:i for i in keep if i and step['parents'][i-1]==0}
            if draft and draft[0] in kept_kids:
                # nodes already kept along the draft path
                node=kept_kids[draft[0]]; have=1
                for t in draft[1:]:
                    nxt=[i for i in keep if i and step['parents'][i-1]==node and step['tokens'][i-1]==t]
                    if not nxt: break
                    node=nxt[0]; have+=1
                extra=len(draft)-have
                r=0
                while r<len(draft) and r<len(fut) and draft[r]==fut[r]: r+=1
                new_tok=1+max(rec,r); new_size=len(keep)+extra
                a['fired']+=1; a['fired_gain']+=max(0,r-rec)
        # price: extend cost curve beyond recorded sizes linearly
        c = cost[new_size-1] if new_size-1 < len(cost) else cost[-1] + (new_size-len(cost))*(cost[-1]-cost[-2] if len(cost)>1 else 0.1)
        a['ntok']+=new_tok; a['ncost']+=c
        commit=commits[k+1]
        if src is not None: src+=len(commit)
for s,a in agg.items():
    print(s, 'recorded %.4f new %.4f ratio %.4f fired %d gain %d' % (a['tok']/a['cost'], a['ntok']/a['ncost'], (a['ntok']/a['ncost'])/(a['tok']/a['cost']), a['fired'], a['fired_gain']))
