"""Across builds: summed decode time (and prompt time with --with-prefill) per set and method (the same prompts and tokens in both
runs when the texts agree), the new build's speed over the old one's, and READER over the old
build's AR. Usage: python3 abs.py [--with-prefill] OLD_RUN NEW_RUN"""
import collections
import json
import math
import sys


def load(d):
    runs = json.load(open(d + '/bench.json'))['runs']
    t = collections.defaultdict(float)  # (set, method) -> decode seconds
    n = collections.defaultdict(int)    # (set, method) -> tokens
    texts = {}
    for r in runs:
        k = (r['set'], r['method'])
        t[k] += (r['decode_ms'] + (r['prefill_ms'] if WITH_PREFILL else 0)) / 1000
        n[k] += r['generated_tokens']
        texts[(r['set'], r['method'], r['id'])] = r['text']
    return t, n, texts


def geomean(v):
    return math.exp(sum(map(math.log, v)) / len(v))


WITH_PREFILL = '--with-prefill' in sys.argv
old, new = [a for a in sys.argv[1:] if not a.startswith('--')]
print('decode' + (' and prefill' if WITH_PREFILL else '') + ' time')
to, no, xo = load(old)
tn, nn, xn = load(new)
same = sum(1 for k in xo if k[1] == 'ar' and xn.get(k) == xo[k])
total = sum(1 for k in xo if k[1] == 'ar')
print(f'AR texts identical across builds: {same} of {total}')
sets = sorted({s for s, _ in to})
print('set            AR new/old tok/s   READER new/old tok/s   READER new / AR old')
ar_r, rd_r, x_r = [], [], []
for s in sets:
    a = (nn[s, 'ar'] / tn[s, 'ar']) / (no[s, 'ar'] / to[s, 'ar'])
    b = (nn[s, 'reader'] / tn[s, 'reader']) / (no[s, 'reader'] / to[s, 'reader'])
    c = (nn[s, 'reader'] / tn[s, 'reader']) / (no[s, 'ar'] / to[s, 'ar'])
    ar_r.append(a); rd_r.append(b); x_r.append(c)
    print(f'{s:14s} {a:8.3f}           {b:8.3f}               {c:8.3f}')
print(f'{"geomean":14s} {geomean(ar_r):8.3f}           {geomean(rd_r):8.3f}               {geomean(x_r):8.3f}')
