#!/usr/bin/env python3
"""Offline: how much would perfectly calibrated estimates gain? Every candidate's estimate q
(as the policy weighed it) is replaced by the share of this set's candidates in its twentieth
of q that the model accepted, parent accepted (shrunk toward q with 5 pseudo-observations),
then Theorem 1 over whole subtrees chooses again (replay_drafts.py's `tree`). In-sample, per
set: an upper bound on what any recalibration of the same estimates could bring.

usage: replay_recalibrated.py OUT/drafts.jsonl[.gz]
"""
import math
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../../scripts"))
from replay_drafts import (accepted_depth, best_subtree, generation_steps, judge,  # noqa: E402
                           read_generations)


def main():
    gens = list(read_generations(sys.argv[1], "reader"))
    weighed = [(name, context, step, future) for name, prompt, steps, commits in gens
               for context, step, future in generation_steps(prompt, steps, commits)
               if all(q >= 0 for q in step["q"])]
    rates = defaultdict(lambda: [[0, 0] for _ in range(20)])  # set -> twentieth -> [ok, n]
    for name, _, step, future in weighed:
        _, matched = judge(step, future)
        for i, (parent, q) in enumerate(zip(step["parents"], step["q"]), 1):
            if matched[parent]:
                cell = rates[name][min(19, int(q * 20))]
                cell[0] += matched[i]
                cell[1] += 1
    totals = defaultdict(lambda: [0.0, 0.0, 0.0, 0.0])
    for name, _, step, future in weighed:
        judged = judge(step, future)
        cost = step["cost"]

        def recalibrated(q, r=rates[name]):
            ok, n = r[min(19, int(q * 20))]
            return (ok + 5 * q) / (n + 5)

        base = best_subtree(step)
        new = best_subtree(dict(step, q=[recalibrated(q) for q in step["q"]]))
        t = totals[name]
        t[0] += 1 + accepted_depth(judged, base)
        t[1] += cost[len(base) - 1]
        t[2] += 1 + accepted_depth(judged, new)
        t[3] += cost[len(new) - 1]
    print("| set | tokens per unit of cost, as weighed | recalibrated | ratio |")
    print("|---|---|---|---|")
    logs = []
    for name, t in totals.items():
        a, b = t[0] / t[1], t[2] / t[3]
        logs.append(math.log(b / a))
        print(f"| {name} | {a:.3f} | {b:.3f} | {b / a:.4f} |")
    print(f"| geometric mean | | | {math.exp(sum(logs) / len(logs)):.4f} |")


if __name__ == "__main__":
    main()
