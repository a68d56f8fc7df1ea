#!/usr/bin/env python3
"""Offline: would a model over more than the estimate choose better? From a `reader bench
--trace` run, every candidate node of every weighed step gets features (the estimate as weighed,
its place in the tree, its source, how often the text continued its last 1-4 tokens with it, the
text's pace; acceptance_refiner.cpp computes the same in the drafter), and a verdict where its
parent was accepted (judged against the committed text, as replay_drafts.py judges). A logistic
regression (and, for comparison, gradient-boosted trees) is fitted on some generations and
predicts the others' estimates; Theorem 1 over whole subtrees (replay_drafts.py's `tree`)
chooses again with them. Three splits: the trace's items in two halves (each predicted by a fit
on the other), leave one set out (each set predicted by a fit on the other six), and a fit on
mt_bench and code_edit predicting the other five (what `reader tune` ships). Printed: tokens per
unit of verification cost over the estimates as weighed, by set, for predicted sets only.

Needs numpy, scikit-learn and lightgbm (any venv: pip install numpy scikit-learn lightgbm).
usage: refiner_study.py OUT/drafts.jsonl[.gz]
"""
import math
import os
import sys
from collections import Counter, defaultdict

import lightgbm as lgb
import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../../scripts"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../session44"))
from replay_common import Totals  # noqa: E402
from replay_drafts import best_subtree, generation_steps, judge, logit, read_generations  # noqa

SOURCES = [1, 2, 3, 5]  # speculator, widening, deepening, copy (replay_drafts.SOURCE_NAMES)


def node_features(step, context, counts, pace):
    """One row per candidate node, in the order of acceptance_refiner.cpp's refiner_features."""
    parents, tokens, q = step["parents"], step["tokens"], step["q"]
    n = len(tokens) + 1
    qs = [1.0] + q
    children = defaultdict(list)
    alpha = [1.0] * n
    for i in range(1, n):
        children[parents[i - 1]].append(i)
        alpha[i] = alpha[parents[i - 1]] * qs[i]
    depth = [0] * n
    for i in range(1, n):
        depth[i] = depth[parents[i - 1]] + 1
    rows = []
    for i in range(1, n):
        p = parents[i - 1]
        lq = logit(qs[i])
        path, a = [], p  # the last (up to 4) tokens before node i: its path's, then the text's
        while a > 0 and len(path) < 4:
            path.insert(0, tokens[a - 1])
            a = parents[a - 1]
        before = (context[-4:] + path)[-4:]
        src = [1.0 if step["sources"][i - 1] == s else 0.0 for s in SOURCES]
        f = [lq, lq * lq / 10, math.log(max(alpha[i], 1e-9)), depth[i], math.log(depth[i]),
             len(children[p]), sum(qs[s] > qs[i] for s in children[p]),
             sum(qs[s] for s in children[p]), len(children[i])] + src
        tok = tokens[i - 1]
        for k in range(1, 5):
            c = counts[k].get(tuple(before[-k:])) if len(before) >= k else None
            tot = sum(c.values()) if c else 0
            hit = c[tok] if c else 0
            # The trie ranks continuations by count, then the lower token first.
            top = bool(c) and max(c.items(), key=lambda kv: (kv[1], -kv[0]))[0] == tok
            f += [math.log1p(tot), hit / tot if tot else -1.0, float(top), math.log1p(hit)]
        f += [pace, math.log1p(counts[0][tok])]
        f += [lq * s for s in src] + [lq * pace, lq * math.log(depth[i])]
        rows.append(f)
    return rows


def extract(path):
    """(rows, verdicts (-1: parent not accepted), (generation, step, node), generations)."""
    rows, verdicts, where, generations = [], [], [], []
    item_of = Counter()
    for name, prompt, steps, commits in read_generations(path, "reader"):
        g = len(generations)
        generations.append((name, item_of[name], []))
        item_of[name] += 1
        counts = [Counter()] + [defaultdict(Counter) for _ in range(4)]  # [0]: token counts
        text = []

        def add(token):
            text.append(token)
            counts[0][token] += 1
            for k in range(1, 5):
                if len(text) > k:
                    counts[k][tuple(text[-k - 1:-1])][token] += 1

        for t in prompt:
            add(t)
        pace = 2.0  # TextPace: from 2, each step's commit weighing 0.2
        for s, ((context, step, future), commit) in enumerate(
                zip(generation_steps(prompt, steps, commits), commits[1:])):
            while len(text) < len(context):
                add(context[len(text)])
            judged = judge(step, future)
            if all(q >= 0 for q in step["q"]):
                generations[g][2].append((s, step, judged))
                _, matched = judged
                for i, f in enumerate(node_features(step, context, counts, pace), 1):
                    rows.append(f)
                    parent = step["parents"][i - 1]
                    verdicts.append(int(matched[i]) if matched[parent] else -1)
                    where.append((g, s, i))
            pace = 0.8 * pace + 0.2 * len(commit)
    return np.array(rows), np.array(verdicts), where, generations


def fit_predict(kind, x, y, train, test):
    fit = train & (y >= 0)
    if kind == "logistic":
        scaler = StandardScaler().fit(x[fit])
        model = LogisticRegression(C=1.0, max_iter=3000).fit(scaler.transform(x[fit]), y[fit])
        return model.predict_proba(scaler.transform(x[test]))[:, 1]
    model = lgb.LGBMClassifier(n_estimators=300, learning_rate=0.03, num_leaves=15,
                               min_child_samples=50, subsample=0.8, subsample_freq=1,
                               colsample_bytree=0.8, verbose=-1)
    return model.fit(x[fit], y[fit]).predict_proba(x[test])[:, 1]


# Feature groups, by column (acceptance_refiner.cpp's order), for the ablation.
GROUPS = {"estimate": [0, 1], "tree": list(range(2, 9)) + [36], "source": [9, 10, 11, 12, 31, 32, 33, 34],
          "n-grams": list(range(13, 29)), "text": [29, 30, 35]}


def predict(kind, x, y, where, tests):
    """(generation, step) -> predicted estimates of its nodes, each test split fitted apart."""
    predicted = defaultdict(dict)
    for test in tests:
        for (g, s, i), p in zip([w for w, t in zip(where, test) if t],
                                fit_predict(kind, x, y, ~test, test)):
            predicted[(g, s)][i] = p
    return {key: [float(v[i]) for i in sorted(v)] for key, v in predicted.items()}


def row(label, kind, ratio, names):
    shown = [ratio[n] for n in names if n in ratio]
    return (f"| {label} | {kind} | " +
            " | ".join(f"{ratio[n]:.3f}" if n in ratio else "-" for n in names) +
            f" | {math.exp(sum(map(math.log, shown)) / len(shown)):.3f} |")


def replay(generations, predicted):
    """Per set: tokens per unit of cost with the predicted estimates over the recorded ones."""
    totals = Totals()
    for g, (name, _, steps) in enumerate(generations):
        for s, step, judged in steps:
            q = predicted.get((g, s))
            if q is None:
                continue
            totals.add(name, "weighed", judged, best_subtree(step), step["cost"])
            totals.add(name, "predicted", judged, best_subtree(dict(step, q=q)), step["cost"])
    rate = {name: {arm: tok / cost for arm, (tok, cost, _) in arms.items()}
            for name, arms in totals.t.items()}
    return {name: r["predicted"] / r["weighed"] for name, r in rate.items()}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    x, y, where, generations = extract(sys.argv[1])
    sets = np.array([generations[g][0] for g, _, _ in where])
    items = np.array([generations[g][1] for g, _, _ in where])
    names = sorted(set(sets))
    half = np.median(items)
    splits = {
        "items in two halves": [items >= half, items < half],
        "leave one set out": [sets == name for name in names],
        "fit on mt_bench": [sets != "mt_bench"],
        "fit on mt_bench + code_edit": [~np.isin(sets, ["mt_bench", "code_edit"])],
    }
    print(f"{len(y)} candidate nodes, {int((y >= 0).sum())} judged, {len(generations)} "
          f"generations\n")
    print("tokens per unit of cost, predicted estimates over the estimates as weighed:\n")
    print("| split | model | " + " | ".join(names) + " | geometric mean |")
    print("|---|---|" + "---|" * (len(names) + 1))
    for label, tests in splits.items():
        for kind in ("logistic", "boosted trees"):
            print(row(label, kind, replay(generations, predict(kind, x, y, where, tests)), names))
    print("\nablation (logistic, leave one set out): the estimate with one group, and all "
          "groups but one:\n")
    print("| features | model | " + " | ".join(names) + " | geometric mean |")
    print("|---|---|" + "---|" * (len(names) + 1))
    loso = splits["leave one set out"]
    for group in GROUPS:
        if group == "estimate":
            continue
        for label, cols in ((f"estimate + {group}", GROUPS["estimate"] + GROUPS[group]),
                            (f"all but {group}", [c for g, v in GROUPS.items() if g != group
                                                  for c in v])):
            ratio = replay(generations, predict("logistic", x[:, sorted(cols)], y, where, loso))
            print(row(label, "logistic", ratio, names))


if __name__ == "__main__":
    main()
