#!/usr/bin/env python3
"""How the copy path's nodes are rated against how often they are accepted, by the match
length behind the copy and the node's depth (session 37), and what Theorem 1's path choice
(replay_drafts.best_path) does if their ratings are raised by those very ratios (in sample,
so an optimistic test: if it does not gain here, it will not elsewhere).

usage: copy_ratings.py TRACE
"""
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../../../scripts"))
sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../session31/analysis"))
import replay_drafts as R  # noqa: E402
from ratios import print_ratios  # noqa: E402
from trace_common import latest_copy  # noqa: E402

COPY = 5  # DraftSource::kCopy (include/reader/generate.h)


def copy_nodes(path):
    """(set, step, judged, per node: (match length, depth) key for copy nodes, else None)."""
    for set_name, prompt, steps, commits in R.read_generations(path, "reader"):
        for ctx, step, future in R.generation_steps(prompt, steps, commits):
            judged = R.judge(step, future)
            match, _ = latest_copy(ctx)
            keys = [None] + [(min(match, 4), min(judged[0][i], 4)) if src == COPY else None
                             for i, src in enumerate(step["sources"], 1)]
            yield set_name, step, judged, keys


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    cells = defaultdict(lambda: [0, 0, 0.0])
    for _, step, (_, matched), keys in copy_nodes(sys.argv[1]):
        for i, (parent, q) in enumerate(zip(step["parents"], step["q"]), 1):
            if keys[i] and matched[parent] and q >= 0:
                c = cells[keys[i]]
                c[0] += 1
                c[1] += matched[i]
                c[2] += q
    print("copy nodes whose parent was accepted: match length (4 = 4+), depth (4 = 4+)")
    print("| match | depth | tried | accepted | mean rating | ratio |")
    print("|---|---|---|---|---|---|")
    for (m, d), (n, ok, q) in sorted(cells.items()):
        print(f"| {m} | {d} | {n} | {ok / n:.2f} | {q / n:.2f} | {ok / q:.2f} |")
    # Raise (or lower) every cell with at least 50 tries to what it achieved.
    factor = {k: ok / q for k, (n, ok, q) in cells.items() if n >= 50 and q > 0}
    totals = defaultdict(lambda: [[0.0, 0.0], [0.0, 0.0]])
    for set_name, step, judged, keys in copy_nodes(sys.argv[1]):
        if not all(q >= 0 for q in step["q"]):
            continue
        cost = step["cost"]
        raised = dict(step, q=[min(0.99, q * factor.get(keys[i], 1.0))
                               for i, q in enumerate(step["q"], 1)])
        for k, s in enumerate((step, raised)):
            keep = R.best_path(s, lambda e, n: e / cost[n - 1])
            totals[set_name][k][0] += 1 + R.accepted_depth(judged, keep)
            totals[set_name][k][1] += cost[len(keep) - 1]
    print_ratios("\nreplayed tokens per unit of cost, copy ratings set to what they achieved / as "
                 "rated:", totals)


if __name__ == "__main__":
    main()
