"""How far the profile's cost curve is from what READER's steps cost in a bench run.
For each prompt: t1 = AR's decode time per token on the same prompt; READER's steps priced
t1 * sum over steps of c(n, L) (verified_histogram[n-1] steps of n tokens, the curve at the
prompt's length); printed per set: measured READER decode time / priced, and READER's
drafted tokens per step. Usage: python3 price.py PROFILE.json RUN_DIR..."""
import collections
import json
import sys


def curve_at(profile, context):
    curves = profile['cost']
    best = min(curves, key=lambda c: abs(c['context'] - context))
    return dict((int(n), v) for n, v in best['curve'])


def c_of(curve, n):
    ns = sorted(curve)
    if n in curve:
        return curve[n]
    for a, b in zip(ns, ns[1:]):
        if a < n < b:
            return curve[a] + (curve[b] - curve[a]) * (n - a) / (b - a)
    a, b = ns[-2], ns[-1]
    return curve[b] + (curve[b] - curve[a]) * (n - b) / (b - a)


profile = json.load(open(sys.argv[1]))
for d in sys.argv[2:]:
    runs = json.load(open(d + '/bench.json'))['runs']
    ar = {(r['set'], r['id']): r for r in runs if r['method'] == 'ar'}
    meas = collections.defaultdict(float)
    priced = collections.defaultdict(float)
    drafted = collections.defaultdict(float)
    steps = collections.defaultdict(float)
    for r in runs:
        if r['method'] != 'reader':
            continue
        a = ar[(r['set'], r['id'])]
        t1 = a['decode_ms'] / max(1, a['generated_tokens'])
        curve = curve_at(profile, r['prompt_tokens'])
        p = sum(cnt * c_of(curve, n + 1) for n, cnt in enumerate(r['verified_histogram']))
        meas[r['set']] += r['decode_ms']
        priced[r['set']] += t1 * p
        drafted[r['set']] += sum(cnt * n for n, cnt in enumerate(r['verified_histogram']))
        steps[r['set']] += r['steps']
    print(d)
    for s in sorted(meas):
        print(f'  {s:14s} measured/priced {meas[s] / priced[s]:.3f}  drafted/step {drafted[s] / steps[s]:.2f}')
    tm, tp = sum(meas.values()), sum(priced.values())
    print(f'  {"all":14s} measured/priced {tm / tp:.3f}')
