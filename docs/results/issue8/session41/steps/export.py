# Writes the recorded steps of one set as a plain file for replay_steps.cpp:
#   P n t1..tn            (a generation's prompt tokens)
#   S k p1..p(k-1) t0..t(k-1) a  (kept tree in batch order: parents of nodes 1..k-1, tokens, accepted nodes count incl root)
import sys, json
import os
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../../../../scripts'))
from replay_drafts import read_generations, generation_steps, judge
trace, want = sys.argv[1], sys.argv[2]
for s, prompt, steps, commits in read_generations(trace, 'reader'):
    if s != want: continue
    print('P', len(prompt), *prompt)
    for ctx, step, fut in generation_steps(prompt, steps, commits):
        depth, matched = judge(step, fut)
        n = len(depth)
        keep = sorted(step.get('keep') or range(n))
        idx = {node: k for k, node in enumerate(keep)}
        toks = [ctx[-1]] + [step['tokens'][i - 1] for i in keep[1:]]
        pars = [idx[step['parents'][i - 1]] for i in keep[1:]]
        acc = [i for i in keep if matched[i]]
        deepest = max(acc, key=lambda i: depth[i])
        path = []
        x = deepest
        while True:
            path.append(idx[x])
            if x == 0: break
            x = step['parents'][x - 1]
        path.reverse()
        print('S', len(keep), *pars, *toks, len(path), *path)
