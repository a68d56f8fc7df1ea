#!/usr/bin/env python3
"""Offline: do the classes of a candidate's token and of its parent's (a word's start or its
continuation, punctuation, a sentence's end, a newline, a digit) tell the refiner more?
session45/refiner_study.py's features plus these, fitted on mt_bench and code_edit and
predicting the other five sets (what `reader tune` ships), replayed as there.

Needs numpy, scikit-learn, lightgbm; PIECES: a JSON list of every token's text (SmolLM2's).
usage: token_class_study.py session44/decision_drafts.jsonl.gz PIECES"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../session45"))
import refiner_study  # noqa: E402
from refiner_study import extract, replay, row  # noqa: E402


def token_classes(piece):
    s = piece
    return [
        float(len(s) > 1 and s[0] == " " and s[1].isalpha()),   # a word's start
        float(len(s) > 0 and s[0].isalpha()),                    # a word's continuation
        float(len(s.strip()) > 0 and all(not c.isalnum() for c in s.strip())),  # punctuation
        float(s.rstrip(" ").endswith((".", "!", "?", ":"))),     # a sentence's end
        float("\n" in s),                                       # a newline
        float(any(c.isdigit() for c in s)),                     # a digit
    ]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    pieces = json.load(open(sys.argv[2]))
    base = refiner_study.node_features

    def with_classes(step, context, counts, pace):
        rows = base(step, context, counts, pace)
        parents, tokens = step["parents"], step["tokens"]
        for i, r in enumerate(rows, 1):
            p = parents[i - 1]
            parent_token = context[-1] if p == 0 else tokens[p - 1]
            r += token_classes(pieces[tokens[i - 1]]) + token_classes(pieces[parent_token])
        return rows

    refiner_study.node_features = with_classes
    # The step's own: its output position and the last step's commit, which extract() does not
    # pass to node_features: counted here by wrapping generation_steps.
    steps_of = refiner_study.generation_steps

    def counted_steps(prompt, steps, commits):
        for s, item in enumerate(steps_of(prompt, steps, commits)):
            state["t"] = s
            state["last"] = len(commits[s]) if s < len(commits) else 1
            yield item

    state = {"t": 0, "last": 1}
    refiner_study.generation_steps = counted_steps
    classes = with_classes

    def with_steps(step, context, counts, pace):
        rows = classes(step, context, counts, pace)
        for r in rows:
            r += [state["t"], state["last"]]
        return rows

    refiner_study.node_features = with_steps
    x, y, where, generations = extract(sys.argv[1])
    sets = np.array([generations[g][0] for g, _, _ in where])
    names = sorted(set(sets))
    tests = [~np.isin(sets, ["mt_bench", "code_edit"])]
    base_cols = list(range(37))
    print("| features | model | " + " | ".join(names) + " | geometric mean |")
    print("|---|---|" + "---|" * (len(names) + 1))
    for kind in ("logistic", "boosted trees"):
        for label, cols in (("shipped 37", base_cols), ("+ token classes", list(range(49))),
                            ("+ token classes + step", list(range(x.shape[1])))):
            pred = refiner_study.predict(kind, x[:, cols], y, where, tests)
            print(row(label, kind, replay(generations, pred), names), flush=True)


if __name__ == "__main__":
    main()
