#!/usr/bin/env python3
"""Are READER's acceptance estimates as good on long prompts as on short ones? From traces of
`reader bench --trace` (one or more OUT/drafts.jsonl[.gz]): of the candidate nodes whose
parent the model accepted, the mean estimate q and the share accepted, by set, by source and
by whether the step verified the node; and by tenth of the searched text's length
(prompt + output so far) for the nodes a step verified; and the copy's nodes by depth.

usage: calibration.py TRACE...
"""
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../../../scripts"))
from replay_drafts import generation_steps, judge, read_generations  # noqa: E402

SOURCES = ["model", "speculator", "widening", "deepening", "suffix", "copy"]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    # (set, source, kept) -> [sum q, accepted, n]
    cell = defaultdict(lambda: [0.0, 0, 0])
    by_context = defaultdict(lambda: [0.0, 0, 0])  # (set, context bucket) -> same, kept nodes
    copy_depth = defaultdict(lambda: [0.0, 0, 0])  # (set, depth bucket, kept) -> same, copy nodes
    for path in sys.argv[1:]:
        for name, prompt, steps, commits in read_generations(path, "reader"):
            for context, step, future in generation_steps(prompt, steps, commits):
                depth, matched = judge(step, future)
                keep = set(step["keep"])
                for i in range(1, len(depth)):
                    parent = step["parents"][i - 1]
                    if not matched[parent] or depth[i] - 1 >= len(future):
                        continue
                    q = step["q"][i - 1]
                    key = (name, SOURCES[step["sources"][i - 1]], i in keep)
                    c = cell[key]
                    c[0] += q
                    c[1] += matched[i]
                    c[2] += 1
                    if key[1] == "copy":
                        d = copy_depth[(name, "1" if depth[i] == 1 else "2-3" if depth[i] <= 3 else "4+", i in keep)]
                        d[0] += q
                        d[1] += matched[i]
                        d[2] += 1
                    if i in keep:
                        b = by_context[(name, min(len(context) // 500 * 500, 2000))]
                        b[0] += q
                        b[1] += matched[i]
                        b[2] += 1
    print("| set | source | verified | nodes | mean q | accepted | accepted / q |")
    print("|---|---|---|---|---|---|---|")
    for (name, source, kept), (q, a, n) in sorted(cell.items()):
        if n >= 20:
            print(f"| {name} | {source} | {'yes' if kept else 'no'} | {n} | {q / n:.3f} | {a / n:.3f} | {a / q:.2f} |")
    print("\nverified nodes by the text's length (prompt + output so far):\n")
    print("| set | tokens | nodes | mean q | accepted | accepted / q |")
    print("|---|---|---|---|---|---|")
    for (name, b), (q, a, n) in sorted(by_context.items()):
        if n >= 20:
            print(f"| {name} | {b}-{b + 499 if b < 2000 else ''} | {n} | {q / n:.3f} | {a / n:.3f} | {a / q:.2f} |")

    print("\ncopy nodes by depth (the copy's n-th token):\n")
    print("| set | depth | verified | nodes | mean q | accepted | accepted / q |")
    print("|---|---|---|---|---|---|---|")
    for (name, d, kept), (q, a, n) in sorted(copy_depth.items()):
        if n >= 10:
            print(f"| {name} | {d} | {'yes' if kept else 'no'} | {n} | {q / n:.3f} | {a / n:.3f} | {a / q:.2f} |")


if __name__ == "__main__":
    main()
