#!/usr/bin/env python3
"""Offline: how much would perfectly calibrated estimates gain? Every candidate's estimate q
(as the policy weighed it) is replaced by the share of this set's candidates in its twentieth
of q that the model accepted, parent accepted (shrunk toward q with 5 pseudo-observations),
then Theorem 1 over whole subtrees chooses again (replay_drafts.py's `tree`). In-sample, per
set: an upper bound on what any recalibration of the same estimates could bring.

usage: replay_recalibrated.py OUT/drafts.jsonl[.gz]
"""
import sys
from collections import defaultdict

from replay_common import Totals, weighed_steps
from replay_drafts import best_subtree, judge


def main():
    # Each step judged once for both passes.
    weighed = [(name, step, judge(step, future)) for name, _, step, future in
               weighed_steps(sys.argv[1])]
    rates = defaultdict(lambda: [[0, 0] for _ in range(20)])  # set -> twentieth -> [ok, n]
    for name, step, (_, matched) in weighed:
        for i, (parent, q) in enumerate(zip(step["parents"], step["q"]), 1):
            if matched[parent]:
                cell = rates[name][min(19, int(q * 20))]
                cell[0] += matched[i]
                cell[1] += 1
    totals = Totals()
    for name, step, judged in weighed:

        def recalibrated(q, r=rates[name]):
            ok, n = r[min(19, int(q * 20))]
            return (ok + 5 * q) / (n + 5)

        totals.add(name, "weighed", judged, best_subtree(step), step["cost"])
        totals.add(name, "recalibrated", judged,
                   best_subtree(dict(step, q=[recalibrated(q) for q in step["q"]])), step["cost"])
    totals.print_table(["weighed", "recalibrated"],
                       ["tokens per unit of cost, as weighed", "recalibrated"],
                       ("recalibrated", "weighed"))


if __name__ == "__main__":
    main()
