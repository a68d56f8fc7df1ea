#!/usr/bin/env python3
"""Where READER's decode time goes on the GPU: per set, its steps, the multi-token steps among
them, and what those cost beyond AR's one-token step (the decode is asynchronous there, so only
a whole run's decode time is reliable, not one step's).

usage: steps.py BENCH_JSON
"""
import json
import sys
from collections import defaultdict


def main():
    runs = json.load(open(sys.argv[1]))["runs"]
    s = defaultdict(lambda: defaultdict(float))
    for r in runs:
        v = s[(r["set"], r["method"])]
        v["tokens"] += r["generated_tokens"]
        v["steps"] += r["steps"]
        v["decode_ms"] += r["decode_ms"]
        for size, count in enumerate(r["verified_histogram"]):
            if size > 1:
                v["multi"] += count
                v["multi_tokens"] += count * size
    print("| set | AR ms/step | READER steps | multi-token steps (mean size) | READER decode ms "
          "| if every step cost AR's | extra ms per multi-token step (in AR steps) |")
    print("|---|---|---|---|---|---|---|")
    for (set_name, method), v in sorted(s.items()):
        if method != "reader":
            continue
        ar = s[(set_name, "ar")]
        t1 = ar["decode_ms"] / ar["steps"]
        flat = v["steps"] * t1
        extra = (v["decode_ms"] - flat) / v["multi"] if v["multi"] else 0
        print(f"| {set_name} | {t1:.3f} | {v['steps']:.0f} | {v['multi']:.0f} "
              f"({v['multi_tokens'] / max(v['multi'], 1):.1f}) | {v['decode_ms']:.0f} | {flat:.0f} "
              f"| {extra:.1f} ({extra / t1:.1f}) |")


if __name__ == "__main__":
    main()
