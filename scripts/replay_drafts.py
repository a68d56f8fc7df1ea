#!/usr/bin/env python3
"""Replays the drafting policy on a trace written by `reader bench --trace` (OUT/drafts.jsonl).

Decoding commits the same tokens whatever was drafted (greedy, or sampled with each
position's draw fixed: below), so every step's candidates (tree, estimates q, prices c(n)
at that context) can be judged against the committed output: which nodes the model would
have accepted is known. Each policy below chooses among the same candidates at the same
steps; its figure is committed tokens per unit of verification cost (c(1) = one
autoregressive step), summed over a set, and its ratio to what was recorded. Step
boundaries stay those of the recorded run, so a policy that would have moved them is judged
approximately; `path` (or `tree`, for a shape that verifies whole trees) must reproduce the
recorded choices (the agreement is printed) or the trace and this script disagree about the
policy. Costs are the tuned curve's, as the policy
saw them; real steps cost somewhat more, and more so where long and short steps alternate
(docs/calibration.md, "Replaying the policy offline"), so a change that moves step sizes
still needs an alternated A/B.

  recorded   what the drafter verified
  path       Theorem 1 over root-to-node paths (best_path: "single_path": true)
  tree       Theorem 1 over whole subtrees (best_subtree: "single_path": false, the tuned
             shape where whole trees verify bitwise)
  rate       the path maximizing E[tokens] - R c(n), R this text's running tokens per cost
             (the per-step choice that maximizes the long-run rate, R taken as known)
  oracle     the candidate oracle: the longest accepted path, verified alone (no policy can
             beat it with these candidates)

It also prints how well the estimates are calibrated: of the candidate nodes whose parent the
model accepted, the share it accepted, by tenth of q.

Sampled runs replay too: each position's draw is fixed by (seed, position), so the model
emits the same text whatever was drafted, and a node is accepted exactly when its path is
that text (on T = 0.8 traces of five seeds, 12,407 of 12,407 steps' accepted lengths came out
as recorded; docs/results/issue8/session37/replay_check.py).

usage: replay_drafts.py OUT/drafts.jsonl[.gz] [--method reader]
"""
import argparse
import gzip
import json
import math
import sys
from collections import defaultdict

# A step's "sources" by code: generate.h's DraftSource, in order.
SOURCE_NAMES = ["model", "speculator", "widening", "deepening", "suffix", "copy"]


def logit(q):
    """As the drafter's recalibration takes it (acceptance.cpp): q clamped to [1e-4, 1 - 1e-4]."""
    q = min(max(q, 1e-4), 1 - 1e-4)
    return math.log(q / (1 - q))


def sigmoid(x):
    return 1 / (1 + math.exp(-x))


def read_generations(path, method):
    """Yields (set, prompt, steps, commits) per traced generation of `method`; steps[i]
    precedes the commit i + 1 (commit 0 is the token prefill produced)."""
    label, prompt, steps, commits = None, [], [], []

    def flush():
        if label and label["method"] == method and label["set"] != "warm-up" and commits:
            yield label["set"], prompt, steps, commits

    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        for line in f:
            obj = json.loads(line)
            if "run" in obj:
                yield from flush()
                label, prompt, steps, commits = obj["run"], [], [], []
            elif "prompt" in obj:
                prompt = obj["prompt"]
            elif "step" in obj:
                steps.append(obj["step"])
            elif "commit" in obj:
                commits.append(obj["commit"])
    yield from flush()


def generation_steps(prompt, steps, commits):
    """(context, step, future) for each step of one traced generation: the tokens before it
    (prompt and output so far, ending with the step's root), its record, and the output the
    model committed after the root, to the end of the generation."""
    output = [t for c in commits for t in c]
    position = len(commits[0])
    for step, commit in zip(steps, commits[1:]):
        yield prompt + output[:position], step, output[position:]
        position += len(commit)


def judge(step, future):
    """Each candidate's depth, and whether the output confirms its whole path (root: True)."""
    depth, matched = [0], [True]
    for parent, token in zip(step["parents"], step["tokens"]):
        d = depth[parent] + 1
        depth.append(d)
        matched.append(matched[parent] and d - 1 < len(future) and future[d - 1] == token)
    return depth, matched


def accepted_depth(judged, keep):
    """Deepest kept node whose path the model accepts (0: none); `keep` holds every kept
    node's parent, as every policy's choice does."""
    depth, matched = judged
    return max((depth[i] for i in keep if matched[i]), default=0)


def alphas(step):
    a = [1.0]
    for i, q in enumerate(step["q"], 1):
        a.append(a[step["parents"][i - 1]] * q)
    return a


def best_path(step, value):
    """The root-to-node path maximizing value(expected tokens, size)."""
    a = alphas(step)
    expected = [1.0] * len(a)
    depth = [0] * len(a)
    best, best_value = 0, value(1.0, 1)
    for i in range(1, len(a)):
        p = step["parents"][i - 1]
        expected[i] = expected[p] + a[i]
        depth[i] = depth[p] + 1
        v = value(expected[i], depth[i] + 1)
        if v > best_value:
            best, best_value = i, v
    keep = set()
    while best:
        keep.add(best)
        best = step["parents"][best - 1]
    return keep | {0}


def best_subtree(step):
    a = alphas(step)
    order = sorted(range(1, len(a)), key=lambda i: (-a[i], i))
    cost = step["cost"]
    expected, best_value, count = 1.0, 1.0 / cost[0], 0
    for k, i in enumerate(order):
        expected += a[i]
        v = expected / cost[k + 1]
        if v > best_value:
            best_value, count = v, k + 1
    return set(order[:count]) | {0}


def oracle(step, judged):
    """The deepest candidate path the model accepts, alone."""
    depth, matched = judged
    node = max(range(len(depth)), key=lambda i: (matched[i] and depth[i], -i))
    keep = {0}
    while node:
        keep.add(node)
        node = step["parents"][node - 1]
    return keep


POLICIES = ["recorded", "path", "tree", "rate", "oracle"]


def calibration(step, judged, counts):
    """Adds (tried, accepted) per tenth of q for the nodes whose parent was accepted."""
    _, matched = judged
    for i, (parent, q) in enumerate(zip(step["parents"], step["q"]), 1):
        if matched[parent] and q >= 0:
            cell = counts[min(9, int(q * 10))]
            cell[0] += 1
            cell[1] += matched[i]


def replay(path, method):
    totals = defaultdict(lambda: defaultdict(lambda: [0.0, 0.0]))  # set -> policy -> [tok, cost]
    calibrated = defaultdict(lambda: [[0, 0] for _ in range(10)])  # set -> tenth -> [n, ok]
    agree = [0, 0]
    for set_name, prompt, steps, commits in read_generations(path, method):
        rate_tokens, rate_cost = 4.0, 4.0  # running rate, starting at 1 with 4 steps' weight
        for _, step, future in generation_steps(prompt, steps, commits):
            judged = judge(step, future)
            calibration(step, judged, calibrated[set_name])
            cost = step["cost"]
            recorded = set(step["keep"])
            weighed = all(q >= 0 for q in step["q"])
            rate = rate_tokens / rate_cost
            choices = {
                "recorded": recorded,
                "path": best_path(step, lambda e, n: e / cost[n - 1]) if weighed else recorded,
                "tree": best_subtree(step) if weighed else recorded,
                "rate": (best_path(step, lambda e, n: e - rate * cost[n - 1])
                         if weighed else recorded),
                "oracle": oracle(step, judged),
            }
            if weighed:  # one path a step, or whole trees (TreeShape::single_path)
                agree[0] += recorded in (choices["path"], choices["tree"])
                agree[1] += 1
            for name, keep in choices.items():
                tokens, price = 1 + accepted_depth(judged, keep), cost[len(keep) - 1]
                totals[set_name][name][0] += tokens
                totals[set_name][name][1] += price
                if name == "rate":
                    rate_tokens += tokens
                    rate_cost += price
    return totals, agree, calibrated


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("trace")
    ap.add_argument("--method", default="reader")
    args = ap.parse_args()
    totals, agree, calibrated = replay(args.trace, args.method)
    if not totals:
        sys.exit(f"replay_drafts.py: no traced generations of method '{args.method}' in "
                 f"{args.trace}")
    print(f"method {args.method}: `path` or `tree` (as the shape verifies) reproduces {agree[0]} "
          f"of {agree[1]} recorded choices\n")
    print("tokens per unit of verification cost (ratio to recorded):\n")
    print("| set | " + " | ".join(POLICIES) + " |")
    print("|---|" + "---|" * len(POLICIES))
    logs = defaultdict(list)
    for set_name, by_policy in totals.items():
        base = by_policy["recorded"][0] / by_policy["recorded"][1]
        cells = []
        for name in POLICIES:
            tok, cost = by_policy[name]
            v = tok / cost
            logs[name].append(math.log(v / base))
            cells.append(f"{v:.3f}" if name == "recorded" else f"{v:.3f} ({v / base:.3f})")
        print(f"| {set_name} | " + " | ".join(cells) + " |")
    print("| geometric mean, ratio | " +
          " | ".join(f"{math.exp(sum(v) / len(v)):.3f}" for v in (logs[p] for p in POLICIES)) +
          " |")
    print("\ncalibration: accepted / tried candidates (parent accepted), by tenth of q:\n")
    print("| set | " + " | ".join(f"{b / 10:.1f}-{(b + 1) / 10:.1f}" for b in range(10)) + " |")
    print("|---|" + "---|" * 10)
    for set_name, cells in calibrated.items():
        print(f"| {set_name} | " + " | ".join(
            f"{ok / n:.2f} ({n})" if n else "-" for n, ok in cells) + " |")


if __name__ == "__main__":
    main()
