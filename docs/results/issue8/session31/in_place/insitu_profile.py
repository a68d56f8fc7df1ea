"""profile OUT = profile IN with its cost curves replaced by the step costs measured in place in
bench runs (READER's verify ms by size over AR's ms per step, same runs), keeping the profile's
growth with context. usage: insitu_profile.py IN.json OUT.json bench.json..."""
import json, sys
from collections import defaultdict
src, out, benches = sys.argv[1], sys.argv[2], sys.argv[3:]
ms = defaultdict(float); cnt = defaultdict(int); arms = 0; arn = 0
for f in benches:
    for r in json.load(open(f))['runs']:
        if r['method'] == 'ar': arms += r['verify_ms']; arn += r['steps']
        if r['method'] != 'reader': continue
        for n, (t, c) in enumerate(zip(r['verify_ms_by_size'], r['verified_histogram'])):
            if c: ms[n] += t; cnt[n] += c
base = arms / arn
pts = {n: ms[n] / cnt[n] / base for n in ms if cnt[n] >= 10 and n >= 2}
pts[1] = 1.0
p = json.load(open(src))
first = dict((n, c) for n, c in p['cost'][0]['curve'])
def interp(curve, n):
    xs = sorted(curve)
    if n in curve: return curve[n]
    lo = max([x for x in xs if x < n], default=xs[0]); hi = min([x for x in xs if x > n], default=None)
    if hi is None:  # extrapolate with the last two points
        a, b = xs[-2], xs[-1]; return curve[b] + (curve[b] - curve[a]) / (b - a) * (n - b)
    return curve[lo] + (curve[hi] - curve[lo]) * (n - lo) / (hi - lo)
for c in p['cost']:
    cur = dict((n, v) for n, v in c['curve'])
    new, prev = [], 0
    for n in sorted(cur):
        v = interp(pts, n) + (cur[n] - interp(first, n))
        v = max(v, prev, 1.0); prev = v
        new.append([n, v])
    c['curve'] = new
json.dump(p, open(out, 'w'), indent=1)
print('in place (AR step %.2f ms):' % base, ' '.join('%d:%.2f' % (n, pts[n]) for n in sorted(pts)))
print('new curve at', p['cost'][0]['context'], [(n, round(v, 2)) for n, v in p['cost'][0]['curve']])
