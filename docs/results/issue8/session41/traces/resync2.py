import sys, collections
sys.path.insert(0, '/work/main/scripts')
from replay_drafts import read_generations, generation_steps, judge
D=16
def longest_suffix_match(ctx, maxm=32):
    # latest longest earlier occurrence of ctx's suffix; returns (len, pos after match)
    n=len(ctx); last=ctx[-1]; best=0; bp=None
    for p in range(n-2, -1, -1):
        if ctx[p]!=last: continue
        l=1
        while l<maxm and p-l>=0 and ctx[p-l]==ctx[n-1-l]: l+=1
        if l>best: best, bp = l, p+1
    return best, bp
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
