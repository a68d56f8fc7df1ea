"""How far the profile's cost curve is from what READER's steps cost in a bench run.
For each prompt: t1 = AR's decode time per token on the same prompt; READER's steps priced
t1 * sum over steps of c(n, L) (verified_histogram[n] steps of n tokens, root included; the
curve at the prompt's length, as the policy interpolates it); printed per set: measured READER
decode time / priced, and READER's verified tokens per step (root included).
Until session 24 this read verified_histogram[n] as steps of n + 1 tokens: it priced each step
one token too dear, so the ratios it printed in sessions 21-23 are too low, and its
"drafted/step" counted the root. Usage: python3 price.py PROFILE.json RUN_DIR..."""
import collections
import json
import sys


def curve_at(profile, context):
    """c(n) at `context` as the policy takes it (CostModel::at): linear between the measured
    contexts, the nearest one outside them."""
    curves = sorted(profile['cost'], key=lambda c: c['context'])
    as_dict = [dict((int(n), v) for n, v in c['curve']) for c in curves]
    if context <= curves[0]['context']:
        return as_dict[0]
    if context >= curves[-1]['context']:
        return as_dict[-1]
    hi = next(i for i, c in enumerate(curves) if c['context'] >= context)
    a, b = as_dict[hi - 1], as_dict[hi]
    w = (context - curves[hi - 1]['context']) / (curves[hi]['context'] - curves[hi - 1]['context'])
    return {n: (1 - w) * c_of(a, n) + w * c_of(b, n) for n in sorted(set(a) | set(b))}


def c_of(curve, n):
    ns = sorted(curve)
    if n in curve:
        return curve[n]
    for a, b in zip(ns, ns[1:]):
        if a < n < b:
            return curve[a] + (curve[b] - curve[a]) * (n - a) / (b - a)
    a, b = ns[-2], ns[-1]
    return curve[b] + (curve[b] - curve[a]) * (n - b) / (b - a)


def main():
    profile = json.load(open(sys.argv[1]))
    for d in sys.argv[2:]:
        runs = json.load(open(d + '/bench.json'))['runs']
        ar = {(r['set'], r['id']): r for r in runs if r['method'] == 'ar'}
        meas = collections.defaultdict(float)
        priced = collections.defaultdict(float)
        verified = collections.defaultdict(float)
        steps = collections.defaultdict(float)
        for r in runs:
            if r['method'] != 'reader':
                continue
            a = ar[(r['set'], r['id'])]
            t1 = a['decode_ms'] / max(1, a['generated_tokens'])
            curve = curve_at(profile, r['prompt_tokens'])
            p = sum(cnt * c_of(curve, n) for n, cnt in enumerate(r['verified_histogram']) if n > 0)
            meas[r['set']] += r['decode_ms']
            priced[r['set']] += t1 * p
            verified[r['set']] += sum(cnt * n for n, cnt in enumerate(r['verified_histogram']))
            steps[r['set']] += r['steps']
        print(d)
        for s in sorted(meas):
            print(f'  {s:14s} measured/priced {meas[s] / priced[s]:.3f}  verified/step {verified[s] / steps[s]:.2f}')
        tm, tp = sum(meas.values()), sum(priced.values())
        print(f'  {"all":14s} measured/priced {tm / tp:.3f}')


if __name__ == '__main__':
    main()
