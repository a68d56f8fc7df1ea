"""What this session's offline replays share: the steps a policy weighed, read from a trace,
and per-set totals of tokens per unit of verification cost for several arms, printed with the
ratio of two of them (replay_drafts.py judges each choice)."""
import math
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../../scripts"))
from replay_drafts import accepted_depth, generation_steps, read_generations  # noqa: E402


def doubt(q):
    """The drafter's doubt of low estimates (tree_policy.h, doubt_low_estimate)."""
    return 0.7 * q if q < 0.45 else q


def undoubt(q):
    """An estimate as weighed (a trace's q) taken back through doubt(): doubted values lie below
    0.7 x 0.45 = 0.315, undoubted ones at 0.45 and above."""
    return q / 0.7 if q < 0.315 else q


def weighed_steps(path):
    """(set, context, step, future) of every traced READER step whose candidates were weighed."""
    for name, prompt, steps, commits in read_generations(path, "reader"):
        for context, step, future in generation_steps(prompt, steps, commits):
            if all(q >= 0 for q in step["q"]):
                yield name, context, step, future


class Totals:
    """Per set and arm: tokens committed, verification cost and tokens drafted."""

    def __init__(self):
        self.t = defaultdict(lambda: defaultdict(lambda: [0.0, 0.0, 0]))

    def add(self, name, arm, judged, keep, cost):
        cell = self.t[name][arm]
        cell[0] += 1 + accepted_depth(judged, keep)
        cell[1] += cost[len(keep) - 1]
        cell[2] += len(keep) - 1

    def print_table(self, arms, headers, ratio):
        """One row per set: each arm's tokens per unit of cost, then ratio[0] / ratio[1]."""
        print("| set | " + " | ".join(headers) + f" | ratio | drafted, {arms[0]} / {arms[-1]} |")
        print("|---|" + "---|" * (len(arms) + 2))
        logs = []
        for name, by_arm in self.t.items():
            v = {a: by_arm[a][0] / by_arm[a][1] for a in arms}
            r = v[ratio[0]] / v[ratio[1]]
            logs.append(math.log(r))
            print(f"| {name} | " + " | ".join(f"{v[a]:.3f}" for a in arms) +
                  f" | {r:.4f} | {by_arm[arms[0]][2]} / {by_arm[arms[-1]][2]} |")
        print("| geometric mean |" + " |" * len(arms) +
              f" {math.exp(sum(logs) / len(logs)):.4f} | |")
