import sys, collections
import os
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, '../../../../../scripts')]
from replay_drafts import read_generations, generation_steps, judge
agg=collections.defaultdict(collections.Counter)
for s,prompt,steps,commits in read_generations(sys.argv[1],'reader'):
    for k,(ctx,step,fut) in enumerate(generation_steps(prompt,steps,commits)):
        depth,matched=judge(step,fut)
        n=len(depth); keep=step.get('keep') or list(range(n))
        rec=max((depth[i] for i in keep if matched[i]), default=0)
        b='0-2' if k<3 else '3-9' if k<10 else '10-29' if k<30 else '30+'
        a=agg[(s,b)]; a['steps']+=1; a['tok']+=1+rec; a['cost']+=step['cost'][len(keep)-1]; a['kept']+=len(keep)-1
for key in sorted(agg):
    a=agg[key]; print(key, a['steps'], 'tok/step %.2f drafted/step %.2f tok/cost %.2f' % (a['tok']/a['steps'], a['kept']/a['steps'], a['tok']/a['cost']))
