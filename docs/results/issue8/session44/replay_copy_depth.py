#!/usr/bin/env python3
"""Offline: do the copy path's estimates gain from knowing how far the copy has run? A copy
node at depth d, its parent accepted, continues a match of match_len + d - 1 tokens (the
copied tokens above it are now text), where its kind says match_len and depth (4 and deeper
pooled). Each copy node's estimate is replaced by this trace's own acceptance rate (parent
accepted) by (a) its kind's features, match_len and depth 1, 2, 3, 4+ (the control: same
procedure, the shipped features), or (b) the match it continues, match_len + d - 1, and the
same depth buckets; then Theorem 1 over whole subtrees chooses again (replay_drafts.py's
`tree`). Rates are in-sample: the difference between (a) and (b) is the figure, not either
alone. The doubt of low estimates (tree_policy.h) is applied as the drafter applies it.

usage: replay_copy_depth.py OUT/drafts.jsonl[.gz]
"""
import sys
from collections import defaultdict

from copy_ambiguity import COPY, copy_with_places
from replay_common import Totals, doubt, weighed_steps
from replay_drafts import best_subtree, judge


def match_bucket(m):
    return m if m <= 8 else (12 if m <= 12 else (16 if m <= 16 else 32))


def features(variant, match, depth):
    d = min(depth, 4)
    return (match_bucket(match), d) if variant == "a" else (match_bucket(match + depth - 1), d)


def copy_nodes(step, context):
    """{node: depth} of the copy's own nodes (source copy) along its path, and the root match."""
    found = copy_with_places(context)
    if not found:
        return {}, 0
    depth = [0]
    nodes = {}
    for i, (parent, source) in enumerate(zip(step["parents"], step["sources"]), 1):
        depth.append(depth[parent] + 1)
        if source == COPY:
            nodes[i] = depth[i]
    return nodes, found[1]


def main():
    # Each step's copy nodes and judgement, found once for both passes.
    steps = [(name, step, judge(step, future)) + copy_nodes(step, context)
             for name, context, step, future in weighed_steps(sys.argv[1])]
    rates = {v: defaultdict(lambda: [0, 0]) for v in "ab"}
    for _, step, (_, matched), nodes, match in steps:
        for node, depth in nodes.items():
            if not matched[step["parents"][node - 1]]:
                continue
            for v in "ab":
                cell = rates[v][features(v, match, depth)]
                cell[0] += matched[node]
                cell[1] += 1
    totals = Totals()
    for name, step, judged, nodes, match in steps:
        for v in ("recorded", "a", "b"):
            q = list(step["q"])
            if v != "recorded":
                for node, depth in nodes.items():
                    ok, n = rates[v][features(v, match, depth)]
                    q[node - 1] = doubt((ok + 2 * 0.5) / (n + 2))
            totals.add(name, v, judged, best_subtree(dict(step, q=q)), step["cost"])
    print("tokens per unit of verification cost, Theorem 1 over whole subtrees:\n")
    totals.print_table(["recorded", "a", "b"],
                       ["shipped estimates", "(a) rates by the kind's features",
                        "(b) by the match continued"], ("b", "a"))


if __name__ == "__main__":
    main()
