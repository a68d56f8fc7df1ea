#!/usr/bin/env python3
"""Offline: would knowing how many earlier places hold the copy's matched suffix change what
the policy verifies, and pay? Each copy first token the copy alone drafted has its estimate q
scaled by rate(match, places) / rate(match) (this trace's own rates: an optimistic, in-sample
figure), then Theorem 1 over whole subtrees chooses again (replay_drafts.py's `tree`).

usage: replay_places.py OUT/drafts.jsonl[.gz]
"""
import math
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../../scripts"))
from copy_ambiguity import COPY, copy_with_places  # noqa: E402
from replay_drafts import (accepted_depth, best_subtree, generation_steps, judge,  # noqa: E402
                           read_generations)


def bucket(match, places):
    return min(match, 4), (1 if places == 1 else 2)


def copy_first(step, token):
    for i, (parent, t, source) in enumerate(
            zip(step["parents"], step["tokens"], step["sources"]), 1):
        if parent == 0 and t == token and source == COPY:
            return i
    return None


def main():
    gens = list(read_generations(sys.argv[1], "reader"))
    rates = defaultdict(lambda: [0, 0])  # (match, places bucket) and (match, None) -> [ok, n]
    for _, prompt, steps, commits in gens:
        for context, step, future in generation_steps(prompt, steps, commits):
            found = copy_with_places(context)
            if not found or not future or copy_first(step, found[0]) is None:
                continue
            m, p = bucket(found[1], found[2])
            for key in ((m, p), (m, None)):
                rates[key][0] += found[0] == future[0]
                rates[key][1] += 1
    for key in sorted(rates, key=str):
        ok, n = rates[key]
        print(f"rate {key}: {ok}/{n} = {ok / n:.3f}")
    totals = defaultdict(lambda: [0.0, 0.0, 0.0, 0.0, 0, 0])
    for name, prompt, steps, commits in gens:
        for context, step, future in generation_steps(prompt, steps, commits):
            if not all(q >= 0 for q in step["q"]):
                continue
            judged = judge(step, future)
            cost = step["cost"]
            base = best_subtree(step)
            found = copy_with_places(context)
            node = copy_first(step, found[0]) if found else None
            new = base
            if node is not None:
                m, p = bucket(found[1], found[2])
                ok, n = rates[(m, p)]
                ok_all, n_all = rates[(m, None)]
                factor = (ok / n) / max(ok_all / n_all, 1e-3)
                q = list(step["q"])
                q[node - 1] = min(0.99, q[node - 1] * factor)
                new = best_subtree(dict(step, q=q))
            t = totals[name]
            t[0] += 1 + accepted_depth(judged, base)
            t[1] += cost[len(base) - 1]
            t[2] += 1 + accepted_depth(judged, new)
            t[3] += cost[len(new) - 1]
            t[4] += len(base) - 1
            t[5] += len(new) - 1
    logs = []
    print("\n| set | tree tokens/cost | with places | ratio | drafted base / new |")
    print("|---|---|---|---|---|")
    for name, t in sorted(totals.items()):
        a, b = t[0] / t[1], t[2] / t[3]
        logs.append(math.log(b / a))
        print(f"| {name} | {a:.3f} | {b:.3f} | {b / a:.4f} | {t[4]} / {t[5]} |")
    print(f"| geometric mean | | | {math.exp(sum(logs) / len(logs)):.4f} | |")


if __name__ == "__main__":
    main()
