# Offline (usage: .venv/bin/python locality.py TRACE.jsonl.gz): would a "most recent occurrence of the longest suffix match" copier find longer
# accepted runs than READER's candidate tree? Per step, accepted depth of each.
import sys, numpy as np
import os
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../../../../scripts'))
import replay_drafts as R
from collections import defaultdict

def recent_copy(ctx, maxlen=32, depth=24, pick='recent'):
    n = len(ctx)
    if n < 2: return [], 0
    cand = np.nonzero(ctx[:n-1] == ctx[n-1])[0]
    L = 1
    if len(cand) == 0: return [], 0
    while L < maxlen:
        c2 = cand[cand - L >= 0]
        c2 = c2[ctx[c2 - L] == ctx[n - 1 - L]]
        if len(c2) == 0: break
        cand, L = c2, L + 1
    p = cand.max() if pick == 'recent' else cand.min()
    return ctx[p + 1: p + 1 + depth].tolist(), L

def common(a, b):
    k = 0
    while k < len(a) and k < len(b) and a[k] == b[k]: k += 1
    return k

def judged_steps(path):
    """(set, context up to the step's root as an array, step, the committed future, the
    deepest accepted candidate of READER's tree, the recorded choice's accepted depth) per
    traced step of method reader."""
    for set_name, prompt, steps, commits in R.read_generations(path, 'reader'):
        for context, step, future in R.generation_steps(prompt, steps, commits):
            depth, matched = R.judge(step, future)
            best = max((d for d, m in zip(depth, matched) if m), default=0)
            recorded = R.accepted_depth((depth, matched), set(step['keep']))
            yield set_name, np.array(context), step, future, best, recorded

if __name__ == '__main__':
    path = sys.argv[1]
    stats = defaultdict(lambda: defaultdict(float))
    for set_name, ctx, _, future, reader_best, rec in judged_steps(path):
        draft, L = recent_copy(ctx)  # it continues after the root, as READER's candidates do
        acc = common(draft, future)
        s = stats[set_name]
        s['steps'] += 1; s['reader_best'] += reader_best; s['recorded'] += rec; s['recent'] += acc
        s['recent_better'] += acc > reader_best; s['reader_better'] += reader_best > acc
        s['max_both'] += max(acc, reader_best)
    for k, s in stats.items():
        n = s['steps']
        print(f"{k:14s} steps {int(n):5d} recorded {s['recorded']/n:.2f} reader-best {s['reader_best']/n:.2f} recent-copy {s['recent']/n:.2f} max-both {s['max_both']/n:.2f} recent>reader {s['recent_better']/n:.1%} reader>recent {s['reader_better']/n:.1%}")

    # variants: depth cap and pick
    for cap, pick, maxlen in [(16, 'recent', 32), (16, 'oldest', 32), (16, 'recent', 15), (8, 'recent', 32)]:
        tot = defaultdict(lambda: [0, 0.0, 0.0])
        for set_name, ctx, _, future, rb, _ in judged_steps(path):
            draft, L = recent_copy(ctx, maxlen=maxlen, depth=cap, pick=pick)
            t = tot[set_name]; t[0] += 1; t[1] += common(draft, future); t[2] += max(rb, common(draft, future))
        print(cap, pick, maxlen, ' '.join(f"{k[:6]}:{v[1]/v[0]:.2f}/{v[2]/v[0]:.2f}" for k, v in tot.items()))
