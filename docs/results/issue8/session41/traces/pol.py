import sys, collections
import os
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, '../../../../../scripts')]
from replay_drafts import read_generations, generation_steps, judge, alphas
want=sys.argv[2]; shown=0
stat=collections.Counter()
for s,prompt,steps,commits in read_generations(sys.argv[1],'reader'):
    if s!=want: continue
    for ctx,step,fut in generation_steps(prompt,steps,commits):
        depth,matched=judge(step,fut)
        n=len(depth); keep=set(step.get('keep') or range(n))
        cand=max(range(n), key=lambda i:(matched[i] and depth[i], -i))
        rec=max((depth[i] for i in keep if matched[i]), default=0)
        if depth[cand]>=3 and rec<depth[cand]-1:
            a=alphas(step)
            # path of cand
            path=[]; x=cand
            while x: path.append(x); x=step['parents'][x-1]
            path.reverse()
            first=path[0]
            stat[('src',step['sources'][first-1])]+=1
            stat[('firstq', round(step['q'][first-1],1))]+=1
            stat['kept_first']+= first in keep
            if shown<8:
                shown+=1
                print(f"ctx {len(ctx)} cand depth {depth[cand]} rec {rec}; path src {[step['sources'][i-1] for i in path]} q {[round(step['q'][i-1],2) for i in path]} alpha_end {a[cand]:.3f}")
                kids=[i for i in range(1,n) if step['parents'][i-1]==0]
                print('   root kids', [(step['sources'][i-1], round(step['q'][i-1],2), i in keep, matched[i]) for i in kids], 'kept', len(keep))
print(sorted(stat.items(), key=str))
