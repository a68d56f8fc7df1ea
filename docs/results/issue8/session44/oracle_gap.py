#!/usr/bin/env python3
"""Where the tokens the policy leaves among its candidates are lost: per set, of the tokens
the candidate oracle (the deepest candidate path the model accepts) commits beyond what was
verified, the share lost by cutting a kept branch short (the oracle path's first node was
kept) against by not keeping its branch at all, and by the source of the oracle path's
deepest node. Steps are those of the recorded run (replay_drafts.py).

usage: oracle_gap.py OUT/drafts.jsonl[.gz]
"""
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../../scripts"))
from replay_drafts import (SOURCE_NAMES, accepted_depth, generation_steps, judge,  # noqa: E402
                           oracle, read_generations)


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else sys.exit(__doc__)
    tally = defaultdict(lambda: defaultdict(float))
    for name, prompt, steps, commits in read_generations(path, "reader"):
        for _, step, future in generation_steps(prompt, steps, commits):
            judged = judge(step, future)
            kept = set(step["keep"])
            got = accepted_depth(judged, kept)
            best_keep = oracle(step, judged)
            best = accepted_depth(judged, best_keep)
            t = tally[name]
            t["steps"] += 1
            t["committed"] += 1 + got
            t["oracle"] += 1 + best
            lost = best - got
            if lost <= 0:
                continue
            deepest = max(best_keep, key=lambda i: judged[0][i])
            first = deepest
            while step["parents"][first - 1] != 0:
                first = step["parents"][first - 1]
            t["cut short" if first in kept else "branch not kept"] += lost
            t["source " + SOURCE_NAMES[step["sources"][deepest - 1]]] += lost
    keys = ["cut short", "branch not kept"] + [
        "source " + s for s in ("speculator", "widening", "deepening", "copy")]
    print("| set | committed / step | oracle / step | " + " | ".join(keys) + " |")
    print("|---|---|---|" + "---|" * len(keys))
    for name, t in tally.items():
        lost = t["oracle"] - t["committed"]
        print(f"| {name} | {t['committed'] / t['steps']:.2f} | {t['oracle'] / t['steps']:.2f} | " +
              " | ".join(f"{t[k] / lost:.0%}" for k in keys) + " |")


if __name__ == "__main__":
    main()
