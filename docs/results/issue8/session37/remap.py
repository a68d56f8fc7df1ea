#!/usr/bin/env python3
"""Re-mapping the policy's estimates, replayed (session 37): is the shipped policy's use of its
estimates at an optimum of the replay? Two families, each applied to every candidate's q (as
the policy weighed it: recalibrated, doubted, token-recorded) before Theorem 1's path choice
(replay_drafts.best_path):
  fixed   q' = sigmoid(a logit(q) + b) for a few (a, b);
  online  a second per-text recalibration with a slope as well as a shift (Platt scaling: MAP
          fit on the last 256 tried nodes, priors a ~ 1 with precision PA and b ~ 0 with
          precision 4; one for the speculator's nodes, one for the rest, as the engine's
          own shift), fed by the nodes the re-mapped policy itself would have tried.
Prints tokens per unit of cost over the recorded policy's, geometric mean over the sets.

usage: remap.py TRACE[,TRACE...]
"""
import math
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../../../scripts"))
import replay_drafts as R  # noqa: E402
from replay_drafts import logit, sigmoid  # noqa: E402

SPECULATOR = 1  # DraftSource::kSpeculator (include/reader/generate.h)


class Platt:
    def __init__(self, slope_precision, window=256, shift_precision=4.0):
        self.a, self.b, self.recent = 1.0, 0.0, []
        self.pa, self.pb, self.window = slope_precision, shift_precision, window

    def adjust(self, q):
        return sigmoid(self.a * logit(q) + self.b) if q > 0 else q

    def record(self, q, accepted):
        self.recent = (self.recent + [(logit(q), accepted)])[-self.window:]

    def refit(self):  # three Newton steps of the MAP fit, from the last (a, b)
        a, b = self.a, self.b
        for _ in range(3):
            ga, gb = -self.pa * (a - 1), -self.pb * b
            haa, hbb, hab = self.pa, self.pb, 0.0
            for x, ok in self.recent:
                p = sigmoid(a * x + b)
                r, w = (1.0 if ok else 0.0) - p, p * (1 - p)
                ga, gb = ga + r * x, gb + r
                haa, hbb, hab = haa + w * x * x, hbb + w, hab + w * x
            det = haa * hbb - hab * hab
            a, b = a + (hbb * ga - hab * gb) / det, b + (haa * gb - hab * ga) / det
        self.a, self.b = min(max(a, 0.3), 3.0), min(max(b, -4.0), 4.0)


def replay(paths, remap_for_generation):
    totals = defaultdict(lambda: [[0.0, 0.0], [0.0, 0.0]])
    for path in paths:
        for set_name, prompt, steps, commits in R.read_generations(path, "reader"):
            remap, learn = remap_for_generation()
            for _, step, future in R.generation_steps(prompt, steps, commits):
                if not all(q >= 0 for q in step["q"]):
                    continue
                judged, cost = R.judge(step, future), step["cost"]
                remapped = dict(step, q=remap(step))
                for k, s in enumerate((step, remapped)):
                    keep = R.best_path(s, lambda e, n: e / cost[n - 1])
                    totals[set_name][k][0] += 1 + R.accepted_depth(judged, keep)
                    totals[set_name][k][1] += cost[len(keep) - 1]
                learn(step, judged, keep)
    ratios = {s: (b[0] / b[1]) / (a[0] / a[1]) for s, (a, b) in totals.items()}
    mean = math.exp(sum(math.log(r) for r in ratios.values()) / len(ratios))
    return mean, ratios


def fixed(a, b):
    def for_generation():
        return (lambda step: [sigmoid(a * logit(q) + b) if q > 0 else q for q in step["q"]],
                lambda *_: None)
    return for_generation


def online(slope_precision):
    def for_generation():
        fits = [Platt(slope_precision), Platt(slope_precision)]

        def which(step, i):
            return fits[0] if step["sources"][i - 1] == SPECULATOR else fits[1]

        def remap(step):
            return [which(step, i).adjust(q) for i, q in enumerate(step["q"], 1)]

        def learn(step, judged, keep):
            _, matched = judged
            for i in keep:
                if i and matched[step["parents"][i - 1]] and step["q"][i - 1] > 0:
                    which(step, i).record(step["q"][i - 1], matched[i])
            for f in fits:
                f.refit()
        return remap, learn
    return for_generation


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    paths = sys.argv[1].split(",")
    variants = [(f"fixed a={a} b={b}", fixed(a, b))
                for a, b in ((1, -0.3), (1, 0.3), (1.2, 0), (0.8, 0), (1.3, 0.3), (1.5, 0.5))]
    variants += [(f"online PA={pa:g}", online(pa)) for pa in (8, 50, 1e9)]
    for name, v in variants:
        mean, ratios = replay(paths, v)
        print(f"{name:20s} {mean:.3f}  " + " ".join(f"{s} {r:.3f}" for s, r in ratios.items()))


if __name__ == "__main__":
    main()
