#!/usr/bin/env python3
"""Did READER's verification steps cost what the profile's curve said? Per set, over A/B runs:
the verification time of every step (bench's verify_ms_by_size, in the same prompt's AR
milliseconds a token) against c(n, L) at the step's size n and the prompt's mean context L
(prompt + half the output; linear between the profile's measured contexts, as CostModel::at).
usage: step_cost_check.py PROFILE.json 'DIR/r*_ARM'"""
import glob
import json
import sys
from collections import defaultdict

prof = json.load(open(sys.argv[1]))
curves = [(c['context'], sorted((int(n), v) for n, v in c['curve'])) for c in prof['cost']]
def cn(pts, n):
    for (n0, v0), (n1, v1) in zip(pts, pts[1:]):
        if n0 <= n <= n1: return v0 + (v1 - v0) * (n - n0) / (n1 - n0)
    return pts[-1][1]
def c_at(n, L):
    if L <= curves[0][0]: return cn(curves[0][1], n)
    for (L0, c0), (L1, c1) in zip(curves, curves[1:]):
        if L0 <= L <= L1:
            t = (L - L0) / (L1 - L0); return cn(c0, n) * (1 - t) + cn(c1, n) * t
    return cn(curves[-1][1], n)
# per set: sum over steps of real ms/AR ms, and of modeled c(n, L)
real = defaultdict(float); model = defaultdict(float); steps = defaultdict(int)
for run in glob.glob(sys.argv[2]):
    sys.path.insert(0, __import__('os').path.join(__import__('os').path.dirname(__import__('os').path.abspath(__file__)), '../..'))
    from bench_io import load_bench
    b = load_bench(run)
    ar = {(r['set'], r['id']): r['decode_ms'] / r['generated_tokens'] for r in b['runs'] if r['method'] == 'ar'}
    for r in b['runs']:
        if r['method'] != 'reader' or r['set'] == 'warm-up': continue
        a = ar[(r['set'], r['id'])]
        L = r['prompt_tokens'] + r['generated_tokens'] / 2
        for n, (ms, cnt) in enumerate(zip(r['verify_ms_by_size'], r['verified_histogram'])):
            if cnt == 0: continue
            real[r['set']] += ms / a
            model[r['set']] += cnt * c_at(n, L)
            steps[r['set']] += cnt
for s in sorted(real):
    print(f"{s:14s} real/modelled step cost {real[s]/model[s]:.3f}  (real {real[s]/steps[s]:.2f}, modelled {model[s]/steps[s]:.2f} AR tokens a step)")
