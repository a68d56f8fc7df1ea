import sys, collections
import os
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, '../../../../../scripts')]
from replay_drafts import read_generations, generation_steps, judge, alphas
tot=collections.defaultdict(collections.Counter)
for s,prompt,steps,commits in read_generations(sys.argv[1],'reader'):
    for ctx,step,fut in generation_steps(prompt,steps,commits):
        depth,matched=judge(step,fut)
        n=len(depth)
        keep=sorted(step.get('keep') or range(n))
        acc=[i for i in keep if matched[i]]
        deepest=max(acc,key=lambda i:depth[i])
        # batch order = keep order (index order)
        pos={node:k for k,node in enumerate(keep)}
        h=pos[deepest]+1-len(acc)
        # reorder: DFS preorder, children by alpha desc
        a=alphas(step)
        kids=collections.defaultdict(list)
        for i in keep:
            if i: kids[step['parents'][i-1]].append(i)
        order=[]; stack=[0]
        while stack:
            x=stack.pop(); order.append(x)
            for c in sorted(kids[x], key=lambda c:a[c]): stack.append(c)
        pos2={node:k for k,node in enumerate(order)}
        h2=pos2[deepest]+1-len(acc)
        t=tot[s]; t['steps']+=1; t['holes']+=h; t['holes_dfs']+=h2; t['kept']+=len(keep)
for s,t in tot.items(): print(s, dict(t))
