#!/usr/bin/env python3
"""Offline: the copy path with a recalibration shift of its own. The drafter fits one logit
shift for the speculator's nodes and one for retrieval's (AcceptanceRecalibration,
tree_policy.h); session 43 found the copy over-rated on long multi-passage prompts and
under-rated on single-document ones while widening held. Here each generation also fits a
shift b to the copy nodes its replayed choices verified (parent accepted), as the drafter fits
its shifts (the last 256 such nodes, a Gaussian prior at 0 of precision 4, three Newton steps a
step), and weighs later copy nodes by sigmoid(logit(q) + b), q taken back through the doubt of
low estimates. Theorem 1 over whole subtrees chooses; the replay's own choices decide what is
learnt, so the arm is judged on its own path (steps stay the recorded ones).

usage: replay_copy_shift.py TRACE...
"""
import sys

from copy_ambiguity import COPY
from replay_common import Totals, doubt, undoubt, weighed_steps
from replay_drafts import best_subtree, judge, logit, sigmoid


class Shift:
    def __init__(self):
        self.recent, self.b = [], 0.0

    def record(self, q, accepted):
        self.recent = (self.recent + [(logit(q), accepted)])[-256:]

    def refit(self):
        b = self.b
        for _ in range(3):
            gradient, curvature = -4.0 * b, 4.0
            for lq, accepted in self.recent:
                p = sigmoid(lq + b)
                gradient += accepted - p
                curvature += p * (1 - p)
            b += gradient / curvature
        self.b = min(max(b, -4.0), 4.0)


def main():
    totals = Totals()
    for path in sys.argv[1:]:
        shift, last = Shift(), None
        for name, context, step, future in weighed_steps(path):
            if last is not None and len(context) <= last:
                shift = Shift()  # a new generation
            last = len(context)
            judged = judge(step, future)
            _, matched = judged
            copies = [i for i, source in enumerate(step["sources"], 1) if source == COPY]
            q = list(step["q"])
            raw = {i: undoubt(q[i - 1]) for i in copies}
            for i in copies:
                q[i - 1] = doubt(sigmoid(logit(raw[i]) + shift.b))
            keep = best_subtree(dict(step, q=q))
            totals.add(name, "shipped", judged, best_subtree(step), step["cost"])
            totals.add(name, "copy shift", judged, keep, step["cost"])
            for i in copies:
                if i in keep and matched[step["parents"][i - 1]]:
                    shift.record(raw[i], matched[i])
            shift.refit()
    totals.print_table(["shipped", "copy shift"], ["shipped (tree)", "copy's own shift"],
                       ("copy shift", "shipped"))


if __name__ == "__main__":
    main()
