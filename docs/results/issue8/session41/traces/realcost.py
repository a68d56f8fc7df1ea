import sys, json, collections
import os
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, '../../../../../scripts')]
from replay_drafts import read_generations, generation_steps, judge, best_subtree, accepted_depth
trace, bench = sys.argv[1], sys.argv[2]
d=json.load(open(bench))
# real ratio by size from reader runs, per set: ms(k)/ms(1)
real=collections.defaultdict(lambda: collections.Counter())
for r in d['runs']:
    if r['method']!='reader': continue
    a=real[r['set']]
    for k,(c,ms) in enumerate(zip(r['verified_histogram'], r['verify_ms_by_size'])):
        a[('n',k)]+=c; a[('ms',k)]+=ms
# curve cost by size from trace (mean over steps that verified k)
curve=collections.defaultdict(lambda: collections.Counter())
gens=list(read_generations(trace,'reader'))
for s,prompt,steps,commits in gens:
    for ctx,step,fut in generation_steps(prompt,steps,commits):
        k=len(step['keep']) if step.get('keep') else len(step['parents'])+1
        curve[s][('n',k)]+=1; curve[s][('c',k)]+=step['cost'][k-1]
ratio={}
for s in real:
    a=real[s]; base=a[('ms',1)]/a[('n',1)]
    f={}
    for k in range(1,40):
        if a[('n',k)]>=5 and curve[s][('n',k)]:
            f[k]=(a[('ms',k)]/a[('n',k)]/base)/(curve[s][('c',k)]/curve[s][('n',k)])
    ratio[s]=f
    print(s, {k:round(v,3) for k,v in f.items()})

def interp(f,k):
    ks=sorted(f)
    if k in f: return f[k]
    lo=max([x for x in ks if x<k], default=ks[0]); hi=min([x for x in ks if x>k], default=ks[-1])
    if lo==hi: return f[lo]
    return f[lo]+(f[hi]-f[lo])*(k-lo)/(hi-lo)
for s,_ in ratio.items():
    f=ratio[s]
    tot=collections.Counter()
    for s2,prompt,steps,commits in gens:
        if s2!=s: continue
        for ctx,step,fut in generation_steps(prompt,steps,commits):
            jd=judge(step,fut)
            n=len(step['parents'])+1
            realc=[step['cost'][k-1]*interp(f,k) for k in range(1,n+1)]
            keep=step.get('keep') or list(range(n))
            tot['rec_tok']+=1+accepted_depth(jd,keep); tot['rec_cost']+=realc[len(keep)-1]
            st2=dict(step); st2['cost']=realc
            k2=best_subtree(st2)
            tot['new_tok']+=1+accepted_depth(jd,k2); tot['new_cost']+=realc[len(k2)-1]
            tot['rec_n']+=len(keep); tot['new_n']+=len(k2); tot['steps']+=1
    print(s, 'recorded', round(tot['rec_tok']/tot['rec_cost'],4), 'rescaled', round(tot['new_tok']/tot['new_cost'],4), 'gain', round(tot['new_tok']/tot['new_cost']/(tot['rec_tok']/tot['rec_cost']),4), 'nodes/step', round(tot['rec_n']/tot['steps'],2), round(tot['new_n']/tot['steps'],2))
