#!/usr/bin/env python3
"""In-situ verification cost by step size, from bench runs' verify_ms_by_size.

For every READER run, a step of n tokens costs mean_ms(n) / mean_ms(1) one-token steps of
the same run (same prompt, similar context). Prints, per n, the median of that ratio over
the runs that had both sizes, beside the profile's curve at the runs' median context.

usage: insitu.py PROFILE.json RUN_DIR... [--method reader]
"""
import json
import os
import statistics
import sys
from collections import defaultdict

# The policy's interpolation of the tuned curve, as session 21's step pricing reads it.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../session21/step_price"))
from price import c_of, curve_at  # noqa: E402


def main():
    args = sys.argv[1:]
    method = "reader"
    if "--method" in args:
        i = args.index("--method")
        method = args[i + 1]
        del args[i:i + 2]
    profile = json.load(open(args[0]))
    ratios = defaultdict(list)
    contexts = defaultdict(list)
    steps = defaultdict(int)
    for d in args[1:]:
        for r in json.load(open(f"{d}/bench.json"))["runs"]:
            if r["method"] != method or "verify_ms_by_size" not in r:
                continue
            ms, hist = r["verify_ms_by_size"], r["verified_histogram"]
            if len(hist) < 2 or hist[1] == 0:
                continue
            one = ms[1] / hist[1]
            context = r["prompt_tokens"] + r["generated_tokens"] // 2
            for n in range(2, len(hist)):
                if hist[n]:
                    ratios[n].append(ms[n] / hist[n] / one)
                    contexts[n].append(context)
                    steps[n] += hist[n]
    print(f"{'n':>3} {'runs':>5} {'steps':>6} {'in-situ c(n)':>13} {'curve c(n)':>11} {'ratio':>6}")
    for n in sorted(ratios):
        c = c_of(curve_at(profile, statistics.median(contexts[n])), n)
        m = statistics.median(ratios[n])
        print(f"{n:>3} {len(ratios[n]):>5} {steps[n]:>6} {m:>13.3f} {c:>11.3f} {m / c:>6.3f}")


if __name__ == "__main__":
    main()
