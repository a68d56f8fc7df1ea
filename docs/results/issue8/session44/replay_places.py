#!/usr/bin/env python3
"""Offline: would knowing how many earlier places hold the copy's matched suffix change what
the policy verifies, and pay? Each copy first token the copy alone drafted has its estimate q
scaled by rate(match, places) / rate(match) (this trace's own rates: an optimistic, in-sample
figure), then Theorem 1 over whole subtrees chooses again (replay_drafts.py's `tree`).

usage: replay_places.py OUT/drafts.jsonl[.gz]
"""
import sys
from collections import defaultdict

from copy_ambiguity import COPY, copy_with_places
from replay_common import Totals, weighed_steps
from replay_drafts import best_subtree, judge


def bucket(match, places):
    return min(match, 4), (1 if places == 1 else 2)


def copy_first(step, token):
    for i, (parent, t, source) in enumerate(
            zip(step["parents"], step["tokens"], step["sources"]), 1):
        if parent == 0 and t == token and source == COPY:
            return i
    return None


def main():
    # Each step's copy and its first node in the tree, found once for both passes.
    steps = []
    for name, context, step, future in weighed_steps(sys.argv[1]):
        found = copy_with_places(context)
        node = copy_first(step, found[0]) if found else None
        steps.append((name, step, future, found, node))
    rates = defaultdict(lambda: [0, 0])  # (match, places bucket) and (match, None) -> [ok, n]
    for _, _, future, found, node in steps:
        if node is None or not future:
            continue
        m, p = bucket(found[1], found[2])
        for key in ((m, p), (m, None)):
            rates[key][0] += found[0] == future[0]
            rates[key][1] += 1
    for key in sorted(rates, key=str):
        ok, n = rates[key]
        print(f"rate {key}: {ok}/{n} = {ok / n:.3f}")
    totals = Totals()
    for name, step, future, found, node in steps:
        judged = judge(step, future)
        base = best_subtree(step)
        new = base
        if node is not None:
            m, p = bucket(found[1], found[2])
            ok, n = rates[(m, p)]
            ok_all, n_all = rates[(m, None)]
            q = list(step["q"])
            q[node - 1] = min(0.99, q[node - 1] * (ok / n) / max(ok_all / n_all, 1e-3))
            new = best_subtree(dict(step, q=q))
        totals.add(name, "tree", judged, base, step["cost"])
        totals.add(name, "places", judged, new, step["cost"])
    print()
    totals.print_table(["tree", "places"], ["tree tokens/cost", "with places"],
                       ("places", "tree"))


if __name__ == "__main__":
    main()
