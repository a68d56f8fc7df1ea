#!/usr/bin/env python3
"""Does knowing each position's draw in advance help the policy under sampling? (session 37)

Under sampling the token at output position t is F(logits_t, U_t), with U_t fixed by (seed, t)
(include/reader/sampling.h: inverse CDF over the tokens in id order). So the drafter could know
U_t before verifying, and a drafted token is less likely to be the one drawn where U_t falls
near 0 or 1 (the edges of the id-ordered CDF belong to the unlikely tokens). Session 26 tried
this live (docs/calibration.md, "Draws known in advance under sampling"); this replays it on
traces instead, out of sample: factors f(bin of U_t) = accepted / sum of q, fitted on some
seeds' traces, multiply every candidate's q on the other seeds' traces, and Theorem 1's path
(replay_drafts.best_path) is chosen again. Prints the acceptance-by-draw table and the replayed
tokens per unit of cost, by set, as ratios to the recorded choice.

usage: draws.py TRACE_SEED1 TRACE_SEED2 ...  (each `reader bench --trace --temp T --seed S`,
       seeds 1, 2, ... in order; .jsonl or .jsonl.gz)
"""
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../../../scripts"))
import replay_drafts as R  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../session10/known_draws"))
from by_draw import uniform as position_uniform  # noqa: E402  (sampling.cpp's, in Python)
from ratios import print_ratios  # noqa: E402

BINS = [0, 0.02, 0.05, 0.1, 0.2, 0.8, 0.9, 0.95, 0.98, 1.0001]


def draw_bin(u):
    return next(k for k, (a, b) in enumerate(zip(BINS, BINS[1:])) if a <= u < b)


def tried_nodes(path, seed):
    """(set, step, judged, per-node draw bin) for every step; a node at depth d is checked
    against the draw of output position (output so far) + d - 1."""
    for set_name, prompt, steps, commits in R.read_generations(path, "reader"):
        for context, step, future in R.generation_steps(prompt, steps, commits):
            judged = R.judge(step, future)
            out = len(context) - len(prompt)
            bins = [None] + [draw_bin(position_uniform(seed, out + judged[0][i] - 1))
                             for i in range(1, len(judged[0]))]
            yield set_name, step, judged, bins


def fit(traces):
    n, ok, qsum = defaultdict(int), defaultdict(int), defaultdict(float)
    for path, seed in traces:
        for _, step, (depth, matched), bins in tried_nodes(path, seed):
            for i, (parent, q) in enumerate(zip(step["parents"], step["q"]), 1):
                if matched[parent] and q >= 0:
                    n[bins[i]] += 1
                    ok[bins[i]] += matched[i]
                    qsum[bins[i]] += q
    return n, ok, qsum


def replay(traces, factor):
    totals = defaultdict(lambda: {"path": [0.0, 0.0], "draws": [0.0, 0.0]})
    for path, seed in traces:
        for set_name, step, judged, bins in tried_nodes(path, seed):
            if not all(q >= 0 for q in step["q"]):
                continue
            cost = step["cost"]
            scaled = dict(step, q=[min(0.99, q * factor[bins[i]])
                                   for i, q in enumerate(step["q"], 1)])
            for name, s in (("path", step), ("draws", scaled)):
                keep = R.best_path(s, lambda e, k: e / cost[k - 1])
                totals[set_name][name][0] += 1 + R.accepted_depth(judged, keep)
                totals[set_name][name][1] += cost[len(keep) - 1]
    print_ratios("", {s: (t["path"], t["draws"]) for s, t in totals.items()})


def main():
    traces = [(p, s) for s, p in enumerate(sys.argv[1:], 1)]
    if len(traces) < 2:
        sys.exit(__doc__)
    n, ok, qsum = fit(traces)
    print("accepted / sum of q, by the draw of the node's position (all traces):")
    for k, (a, b) in enumerate(zip(BINS, BINS[1:])):
        if n[k]:
            print(f"  U in [{a:.2f}, {min(b, 1):.2f}): {n[k]:5d} nodes, accepted {ok[k] / n[k]:.3f}, "
                  f"mean q {qsum[k] / n[k]:.3f}, ratio {ok[k] / qsum[k]:.2f}")
    half = len(traces) // 2 + 1
    for fit_on, test_on in ((traces[:half], traces[half:]), (traces[half - 1:], traces[:half - 1])):
        n, ok, qsum = fit(fit_on)
        factor = [ok[k] / qsum[k] if qsum[k] else 1.0 for k in range(len(BINS) - 1)]
        print(f"\nfactors fitted on seeds {[s for _, s in fit_on]}: "
              + " ".join(f"{f:.2f}" for f in factor))
        print(f"replayed on seeds {[s for _, s in test_on]}, draws / recorded policy:")
        replay(test_on, factor)


if __name__ == "__main__":
    main()
