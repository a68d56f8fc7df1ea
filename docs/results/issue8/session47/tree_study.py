#!/usr/bin/env python3
"""Offline: which boosted-tree refiner, small enough to evaluate every step, keeps session 45's
gain over the logistic refiner? session45/refiner_study.py's features, verdicts and replay on
session 44's decision trace; fitted on mt_bench and code_edit (what `reader tune` ships) and
predicting the other five sets; XGBoost (the Debian library's version, 1.7.4) at several sizes.
Printed: tokens per unit of verification cost over the estimates as weighed, by set.

Needs numpy, scikit-learn, lightgbm, xgboost==1.7.4.
usage: tree_study.py session44/decision_drafts.jsonl.gz"""
import math
import os
import sys

import numpy as np
import xgboost as xgb

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../session45"))
from refiner_study import extract, fit_predict, replay, row  # noqa: E402
import refiner_study  # noqa: E402

VARIANTS = {
    "depth 2, 200 x 0.1": dict(max_depth=2, eta=0.1, rounds=200),
    "depth 3, 100 x 0.1": dict(max_depth=3, eta=0.1, rounds=100),
    "depth 3, 200 x 0.05": dict(max_depth=3, eta=0.05, rounds=200),
    "depth 4, 100 x 0.1": dict(max_depth=4, eta=0.1, rounds=100),
    "depth 4, 300 x 0.03": dict(max_depth=4, eta=0.03, rounds=300),
}


def xgb_predict(params, x, y, train, test):
    fit = train & (y >= 0)
    p = dict(objective="binary:logistic", tree_method="hist", max_depth=params["max_depth"],
             eta=params["eta"], min_child_weight=5, subsample=0.8, colsample_bytree=0.8,
             reg_lambda=1.0, seed=1, nthread=2)
    booster = xgb.train(p, xgb.DMatrix(x[fit], label=y[fit]), params["rounds"])
    return booster.predict(xgb.DMatrix(x[test]))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    x, y, where, generations = extract(sys.argv[1])
    sets = np.array([generations[g][0] for g, _, _ in where])
    names = sorted(set(sets))
    tests = [~np.isin(sets, ["mt_bench", "code_edit"])]
    print(f"{len(y)} candidate nodes, {int((y >= 0).sum())} judged\n")
    print("| model | " + " | ".join(names) + " | geometric mean |")
    print("|---|" + "---|" * (len(names) + 1))
    print(row("fit on mt_bench + code_edit", "logistic",
              replay(generations, refiner_study.predict("logistic", x, y, where, tests)), names))
    print(row("fit on mt_bench + code_edit", "lightgbm (session 45)",
              replay(generations, refiner_study.predict("boosted trees", x, y, where, tests)),
              names))
    for label, params in VARIANTS.items():
        refiner_study.fit_predict = lambda kind, x, y, tr, te, p=params: xgb_predict(p, x, y, tr, te)
        print(row("fit on mt_bench + code_edit", "xgboost " + label,
                  replay(generations, refiner_study.predict("x", x, y, where, tests)), names),
              flush=True)


if __name__ == "__main__":
    main()
