#!/usr/bin/env python3
"""Where READER's steps fall short of the copy oracle, by how long a copy was available
(session 37). For every step: the longest run of the coming output that occurs in the prompt
and the output so far (what the copy oracle of include/reader/copy_bound.h could draft there),
the tokens READER got accepted, the deepest any of its candidates reached, and what it drafted.

usage: long_runs.py TRACE SET [--examples N]
"""
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../../../scripts"))
import replay_drafts as R  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../session31/analysis"))
from trace_common import occurrences  # noqa: E402


def run_length(before, future):
    """The longest run of `future` (up to 32 tokens) that occurs in `before`."""
    return max((k for k, _ in occurrences(before, future)), default=0)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    path, want = sys.argv[1], sys.argv[2]
    examples = int(sys.argv[sys.argv.index("--examples") + 1]) if "--examples" in sys.argv else 0
    by_run = defaultdict(lambda: [0, 0, 0, 0])
    for set_name, prompt, steps, commits in R.read_generations(path, "reader"):
        if set_name != want:
            continue
        for ctx, step, future in R.generation_steps(prompt, steps, commits):
            judged = R.judge(step, future)
            got = R.accepted_depth(judged, set(step["keep"]))
            deepest = R.accepted_depth(judged, set(range(len(judged[0]))))
            run = run_length(ctx, future)
            cell = by_run[min(run, 8)]
            cell[0] += 1
            cell[1] += got
            cell[2] += deepest
            cell[3] += len(step["keep"]) - 1
            if run >= 8 and examples > 0:
                examples -= 1
                depth, matched = judged
                node = max(range(len(depth)), key=lambda i: (matched[i] and depth[i], -i))
                chain = []
                while node:
                    chain.append(node)
                    node = step["parents"][node - 1]
                print(f"run {run:2d}: accepted {got}, drafted {len(step['keep']) - 1}, deepest "
                      f"candidate {len(chain)}, its q {[round(step['q'][i - 1], 2) for i in chain[::-1]]}")
    print(f"\n{want}: by the copy oracle's run at the step (8 = 8 or more)")
    print("| run | steps | accepted per step | deepest candidate per step | drafted per step |")
    print("|---|---|---|---|---|")
    for run in sorted(by_run):
        n, got, deepest, drafted = by_run[run]
        print(f"| {run} | {n} | {got / n:.2f} | {deepest / n:.2f} | {drafted / n:.2f} |")


if __name__ == "__main__":
    main()
