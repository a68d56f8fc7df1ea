#!/usr/bin/env python3
"""Did READER's verification steps cost what the profile's curve said? Per set, over A/B runs:
the verification time of every step (bench's verify_ms_by_size, in the same prompt's AR
milliseconds a token) against c(n, L) at the step's size n and the prompt's mean context L
(prompt + half the output), the curve taken as the policy takes it (session 21's price.py,
which prices whole decode times the same way). --by-prompt: one row per prompt (summed over the
runs), with that prompt's AR milliseconds a token in the first run (session 46).
usage: step_cost_check.py PROFILE.json 'DIR/r*_ARM' [--by-prompt]"""
import glob
import json
import os
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../.."))
sys.path.insert(0, os.path.join(HERE, "../../session21/step_price"))
from bench_io import load_bench  # noqa: E402
from price import c_of, curve_at  # noqa: E402


def main():
    by_prompt = "--by-prompt" in sys.argv[3:]
    if len(sys.argv) != 3 + by_prompt:
        sys.exit(__doc__)
    profile = json.load(open(sys.argv[1]))
    real, priced, steps = defaultdict(float), defaultdict(float), defaultdict(int)
    ar_ms_first = {}  # row -> the prompt's AR ms a token in the first run (--by-prompt)
    for run in sorted(glob.glob(sys.argv[2])):
        runs = load_bench(run)["runs"]
        ar = {(r["set"], r["id"]): r["decode_ms"] / r["generated_tokens"]
              for r in runs if r["method"] == "ar"}
        for r in runs:
            if r["method"] != "reader" or r["set"] == "warm-up":
                continue
            ar_ms = ar[(r["set"], r["id"])]
            row = f"{r['set']} {r['id']}" if by_prompt else r["set"]
            ar_ms_first.setdefault(row, ar_ms)
            curve = curve_at(profile, r["prompt_tokens"] + r["generated_tokens"] / 2)
            for n, (ms, count) in enumerate(zip(r["verify_ms_by_size"], r["verified_histogram"])):
                if count:
                    real[row] += ms / ar_ms
                    priced[row] += count * c_of(curve, n)
                    steps[row] += count
    for name in sorted(real):
        extra = f", AR {ar_ms_first[name]:.2f} ms a token" if by_prompt else ""
        print(f"{name:14s} real/modelled step cost {real[name] / priced[name]:.3f}  (real "
              f"{real[name] / steps[name]:.2f}, modelled {priced[name] / steps[name]:.2f} AR tokens "
              f"a step{extra})")


if __name__ == "__main__":
    main()
