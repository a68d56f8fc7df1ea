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
from replay_drafts import SOURCE_NAMES, generation_steps, judge, read_generations  # noqa: E402


class Tally:
    """Nodes judged in one cell: their estimates summed, how many were accepted, how many."""

    def __init__(self):
        self.q = self.accepted = self.n = 0

    def add(self, q, accepted):
        self.q += q
        self.accepted += accepted
        self.n += 1

    def columns(self):
        return f"{self.n} | {self.q / self.n:.3f} | {self.accepted / self.n:.3f} | {self.accepted / self.q:.2f}"


def print_table(title, header, cells, label, min_nodes):
    """One markdown table: `label(key)` gives a row's leading columns, cells under min_nodes are left out."""
    if title:
        print(title)
    print(f"| {header} | nodes | mean q | accepted | accepted / q |")
    print("|---" * (header.count("|") + 5) + "|")
    for key, t in sorted(cells.items()):
        if t.n >= min_nodes:
            print(f"| {label(key)} | {t.columns()} |")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    by_source = defaultdict(Tally)  # (set, source, verified)
    by_context = defaultdict(Tally)  # (set, context bucket), verified nodes
    copy_depth = defaultdict(Tally)  # (set, depth bucket, verified), copy nodes
    for path in sys.argv[1:]:
        for name, prompt, steps, commits in read_generations(path, "reader"):
            for context, step, future in generation_steps(prompt, steps, commits):
                depth, matched = judge(step, future)
                keep = set(step["keep"])
                for i in range(1, len(depth)):
                    parent = step["parents"][i - 1]
                    if not matched[parent] or depth[i] - 1 >= len(future):
                        continue
                    q, ok, kept = step["q"][i - 1], matched[i], i in keep
                    source = SOURCE_NAMES[step["sources"][i - 1]]
                    by_source[(name, source, kept)].add(q, ok)
                    if source == "copy":
                        bucket = "1" if depth[i] == 1 else "2-3" if depth[i] <= 3 else "4+"
                        copy_depth[(name, bucket, kept)].add(q, ok)
                    if kept:
                        by_context[(name, min(len(context) // 500 * 500, 2000))].add(q, ok)
    yes_no = lambda kept: "yes" if kept else "no"  # noqa: E731
    print_table("", "set | source | verified", by_source,
                lambda k: f"{k[0]} | {k[1]} | {yes_no(k[2])}", 20)
    print_table("\nverified nodes by the text's length (prompt + output so far):\n", "set | tokens",
                by_context, lambda k: f"{k[0]} | {k[1]}-{k[1] + 499 if k[1] < 2000 else ''}", 20)
    print_table("\ncopy nodes by depth (the copy's n-th token):\n", "set | depth | verified",
                copy_depth, lambda k: f"{k[0]} | {k[1]} | {yes_no(k[2])}", 10)


if __name__ == "__main__":
    main()
