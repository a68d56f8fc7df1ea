#!/usr/bin/env python3
"""Two more copy candidates, judged on a trace (session 37): what they would add beyond every
candidate READER already had, and, for the first, what Theorem 1 would make of it.

The copy path (include/reader/context_copy.h) follows the context's longest earlier repeat at
its latest occurrence. Two variants for where a copy breaks or starts:
  resync   the model wrote Y where the source had X: match the context without its last
           `skip` tokens (1-3) and continue past them, as if they were substituted
           (only where that match is >= MIN tokens and longer than the plain copy's);
  forward  a summary or an answer copies its source in order: among the occurrences of the
           context's last token (matched >= 1 or 2 tokens back), the nearest one after the
           place the text last copied from (a plain-copy match of >= 4 tokens), where the plain
           copy's match is short (< 4).
For each, by set: steps where it applies, how often its first token is right, and the tokens
it gets accepted beyond the deepest of READER's candidates (an upper bound on its gain).
`--replay` adds the resync path as a root branch weighed by its own acceptance by depth
(fitted on this very trace, so optimistic) and replays Theorem 1's path choice.

usage: copy_variants.py TRACE [--replay]
"""
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../../../scripts"))
import replay_drafts as R  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../session31/analysis"))
from ratios import print_ratios  # noqa: E402
from trace_common import latest_copy  # noqa: E402  (context_copy.h's copy, in Python)

# The copy path's match, depth and scan window (reader_drafter.cpp); the resync's least match.
MAX_MATCH, DEPTH, WINDOW, MIN = 32, 16, 8192, 3


def last_token_occurrences(ctx, end):
    """(p, backward match length) for every p < end - 1 holding ctx[end - 1], newest first."""
    last, found = ctx[end - 1], []
    for p in range(end - 2, max(-1, end - 2 - WINDOW), -1):
        if ctx[p] == last:
            n = 1
            while n < MAX_MATCH and p - n >= 0 and ctx[p - n] == ctx[end - 1 - n]:
                n += 1
            found.append((p, n))
    return found


def accepted(path, future):
    d = 0
    for a, b in zip(path, future):
        if a != b:
            break
        d += 1
    return d


def resync(ctx):
    plain, _ = latest_copy(ctx)
    best = None
    for skip in (1, 2, 3):
        n, path = latest_copy(ctx, skip=skip)
        if n >= MIN and n > plain and (best is None or n > best[1]):
            best = (path, n)
    return best


def steps(path):
    for set_name, prompt, steps_, commits in R.read_generations(path, "reader"):
        yield set_name, None, None, None, None  # a new generation
        for ctx, step, future in R.generation_steps(prompt, steps_, commits):
            judged = R.judge(step, future)
            deepest = R.accepted_depth(judged, set(range(len(judged[0]))))
            yield set_name, ctx, step, future, (judged, deepest)


def compare(path):
    t = defaultdict(lambda: defaultdict(int))
    ptr = None
    for set_name, ctx, step, future, j in steps(path):
        if ctx is None:
            ptr = None
            continue
        judged, deepest = j
        s = t[set_name]
        s["steps"] += 1
        s["tokens"] += 1 + R.accepted_depth(judged, set(step["keep"]))
        r = resync(ctx)
        if r:
            d = accepted(r[0], future)
            s["resync: steps"] += 1
            s["resync: first right"] += d > 0
            s["resync: beyond candidates"] += max(0, d - deepest)
        found = last_token_occurrences(ctx, len(ctx))
        if found:
            p0, n0 = max(found, key=lambda x: (x[1], x[0]))
            for min_n in (1, 2):
                ahead = [x for x in found if ptr is not None and x[0] > ptr and x[1] >= min_n]
                if ahead and n0 < 4:
                    p = min(ahead)[0]
                    d = accepted(ctx[p + 1:p + 1 + DEPTH], future)
                    s[f"forward>={min_n}: steps"] += 1
                    s[f"forward>={min_n}: first right"] += d > 0
                    s[f"forward>={min_n}: plain first right"] += accepted(
                        ctx[p0 + 1:p0 + 1 + DEPTH], future) > 0
                    s[f"forward>={min_n}: beyond candidates"] += max(0, d - deepest)
            if n0 >= 4:
                ptr = p0
    keys = ["steps", "tokens"] + sorted({k for s in t.values() for k in s} - {"steps", "tokens"})
    print("| set | " + " | ".join(keys) + " |")
    print("|---|" + "---|" * len(keys))
    for set_name, s in t.items():
        print(f"| {set_name} | " + " | ".join(str(s[k]) for k in keys) + " |")


def replay(path):
    tried, ok = defaultdict(int), defaultdict(int)
    for _, ctx, _, future, _ in steps(path):
        r = ctx and resync(ctx)
        if r:
            d = accepted(r[0], future)
            for k in range(min(len(r[0]), d + 1)):
                tried[min(k, 4)] += 1
                ok[min(k, 4)] += k < d
    q = {k: ok[k] / tried[k] for k in tried}
    print("\nresync acceptance by depth (0 = first token): "
          + ", ".join(f"{k}: {q[k]:.2f} of {tried[k]}" for k in sorted(q)))
    totals = defaultdict(lambda: [[0.0, 0.0], [0.0, 0.0]])
    for set_name, ctx, step, future, j in steps(path):
        if ctx is None or not all(x >= 0 for x in step["q"]):
            continue
        judged, _ = j
        cost = step["cost"]
        keep = R.best_path(step, lambda e, k: e / cost[k - 1])
        base = (1 + R.accepted_depth(judged, keep), cost[len(keep) - 1])
        alpha = R.alphas(step)
        value = sum(alpha[i] for i in keep) / base[1]
        choice = base
        r = resync(ctx)
        if r:
            d, a, expected = accepted(r[0], future), 1.0, 1.0
            for k in range(len(r[0])):
                c = cost[min(k + 1, len(cost) - 1)]
                a *= q.get(min(k, 4), 0.0)
                expected += a
                if expected / c > value:
                    value, choice = expected / c, (1 + min(d, k + 1), c)
        for i, (tok, c) in enumerate((base, choice)):
            totals[set_name][i][0] += tok
            totals[set_name][i][1] += c
    print_ratios("replayed tokens per unit of cost, with the resync branch / without:", totals)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    compare(sys.argv[1])
    if "--replay" in sys.argv:
        replay(sys.argv[1])
