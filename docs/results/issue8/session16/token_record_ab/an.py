"""Per decision run: READER / AR per set on the wall clock (ratio of summed decode times) and
priced (each step charged the measured step cost of its size, session 15's step_costs/),
their geometric means, and drafted tokens per step.
Usage: python3 an.py [--costs COSTS.json] RUN_DIR...   (COSTS.json: {"n": cost}, another table)"""
import collections
import json
import math
import os
import sys

# Time of a step verifying n tokens over an AR step (session 15's step-time log; 32: profile).
STEP_COST = {1: 1, 2: 1.298, 3: 1.608, 4: 1.855, 8: 2.364, 16: 2.971, 32: 4.9}
_SIZES = sorted(STEP_COST)


def step_cost(n):
    """Linear between measured sizes, the largest one's cost beyond."""
    for a, b in zip(_SIZES, _SIZES[1:]):
        if a <= n <= b:
            return STEP_COST[a] + (STEP_COST[b] - STEP_COST[a]) * (n - a) / (b - a)
    return STEP_COST[_SIZES[-1]]


def geomean(v):
    return math.exp(sum(map(math.log, v)) / len(v))


def main(dirs):
    for f in dirs:
        j = json.load(open(f + '/bench.json'))
        # set -> method -> [decode ms, tokens, priced cost, drafted, steps]
        agg = collections.defaultdict(lambda: collections.defaultdict(lambda: [0, 0, 0, 0, 0]))
        for r in j['runs']:
            a = agg[r['set']][r['method']]
            h = r.get('verified_histogram') or [0, r['steps']]
            a[0] += r['decode_ms']
            a[1] += r['generated_tokens']
            a[2] += sum(k * step_cost(n) for n, k in enumerate(h) if n > 0)
            a[3] += r['drafted_tokens']
            a[4] += r['steps']
        wall, priced, row = [], [], []
        for s in sorted(agg):
            A, R = agg[s]['ar'], agg[s]['reader']
            w, p = A[0] / R[0], A[2] / R[2]
            wall.append(w)
            priced.append(p)
            row.append(f"{s[:5]} w{w:.3f} p{p:.3f}")
        dps = sum(agg[s]['reader'][3] for s in agg) / sum(agg[s]['reader'][4] for s in agg)
        print(f"{os.path.basename(f):10s} wall {geomean(wall):.4f} priced {geomean(priced):.4f} "
              f"d/s {dps:.2f} | " + " ".join(row))


def use_costs(path):
    """Price on the step costs in `path` instead of session 15's."""
    global STEP_COST, _SIZES
    STEP_COST = {int(n): c for n, c in json.load(open(path)).items()}
    _SIZES = sorted(STEP_COST)


if __name__ == '__main__':
    args = sys.argv[1:]
    if args[:1] == ['--costs']:
        use_costs(args[1])
        args = args[2:]
    main(args)
