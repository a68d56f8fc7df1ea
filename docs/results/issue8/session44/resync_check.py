#!/usr/bin/env python3
"""Would a copy that resynchronizes after an edit add right guesses? Token by token over each
traced output: the copy's guess (longest earlier suffix match, context_copy.h) and a resync
guess that keeps the source pointer of the last strong copy (match of 3 or more) through a
divergence (a substituted token skipped, a deletion of up to 8 source tokens re-aligned, an
insertion waited out), made only where the copy's match is under 3. Counts per set: positions,
weak-match positions, resync guesses made, right, and right where the copy was wrong.

usage: resync_check.py TRACE
"""
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../../scripts"))
from collections import defaultdict
from replay_drafts import read_generations
def std_copy(ctx, window=8192, maxm=32):
    n=len(ctx); last=ctx[-1]; best=-1; bl=0
    for p in range(n-2, max(0,n-1-window)-1, -1):
        if ctx[p]!=last: continue
        l=1
        while l<maxm and p-l>=0 and ctx[p-l]==ctx[n-1-l]: l+=1
        if l>bl: bl=l; best=p
        if bl>=maxm: break
    return (best+1, bl) if best>=0 else (None,0)
t=defaultdict(lambda: defaultdict(int))
for name,prompt,steps,commits in read_generations(sys.argv[1],'reader'):
    out=[x for c in commits for x in c]
    ptr=None
    for i in range(1,len(out)):
        ctx=prompt+out[:i]
        nxt=out[i]
        pos,m=std_copy(ctx)
        std_ok = pos is not None and pos < len(ctx) and ctx[pos]==nxt
        strong = m>=3
        rs_ok = ptr is not None and ptr < len(ctx) and ctx[ptr]==nxt and not strong
        d=t[name]
        d['n']+=1
        d['std_ok']+=std_ok
        if strong: d['strong']+=1
        if not strong:
            d['weak']+=1
            d['weak_std_ok']+=std_ok
            if ptr is not None: d['rs_guess']+=1
            d['rs_ok']+=rs_ok
            d['rs_ok_std_wrong']+= rs_ok and not std_ok
        # update ptr after emitting nxt (ctx grows by nxt)
        if strong:
            ptr = pos+1 if ctx[pos]==nxt else None
            if ctx[pos]!=nxt:
                # diverged from a strong copy: remember where the source was
                ptr = pos+1  # substitution hypothesis: skip the source token
        elif ptr is not None:
            if ptr < len(ctx) and ctx[ptr]==nxt: ptr+=1
            else:
                j = next((j for j in range(1,9) if ptr+j < len(ctx) and ctx[ptr+j]==nxt), None)
                if j is not None: ptr = ptr+j+1
                # else keep ptr (insertion hypothesis)
for name,d in t.items():
    print(name, dict(d))
