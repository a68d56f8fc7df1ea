import sys
from collections import defaultdict, Counter
import os; sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../../../../scripts'))
from replay_drafts import read_generations, generation_steps, judge
res=defaultdict(Counter)
for st,prompt,steps,commits in read_generations(sys.argv[1],'reader'):
    for ctx,step,future in generation_steps(prompt,steps,commits):
        depth,matched=judge(step,future)
        keep=set(step['keep'])
        c=res[st]; c['steps']+=1
        kept1=[i for i in keep if depth[i]==1]
        c['kept_any']+=bool(kept1)
        c['kept_ok']+=any(matched[i] for i in kept1)
        all1=[i for i in range(1,len(depth)) if depth[i]==1]
        c['cand_ok']+=any(matched[i] for i in all1)
        c['ncand1']+=len(all1)
        # first token appears in ctx after root?  
for st,c in res.items():
    n=c['steps']; print(f"{st:14s} steps {n} kept-any {c['kept_any']/n:.2f} kept-ok {c['kept_ok']/n:.2f} cand-ok {c['cand_ok']/n:.2f} cand1/step {c['ncand1']/n:.1f}")
