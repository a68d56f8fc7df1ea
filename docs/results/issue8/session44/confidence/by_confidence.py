#!/usr/bin/env python3
"""Is the model's confidence a regime the estimates miss? Reads the log of instrument.diff
(RX_CONF_LOG: per tried proposal, its source, depth, feature, estimate q, whether accepted, and
the model's top-1 share among 4 candidates at the previous step's deepest accepted node, then
at the step before) and prints, per source and confidence bucket, the nodes, mean estimate,
share accepted and their ratio.

usage: by_confidence.py LOG[.gz] [COLUMN: 5 = the previous step (default), 6 = the one before]
"""
import gzip
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "../../../../../scripts"))
from replay_drafts import SOURCE_NAMES  # noqa: E402  (DraftSource codes, in order)
ORDER = ["none", "<0.5", "0.5-0.8", "0.8-0.95", "0.95-0.99", ">=0.99"]


def bucket(c):
    if c < 0:
        return "none"  # the first step of a generation
    for top, label in ((0.5, "<0.5"), (0.8, "0.5-0.8"), (0.95, "0.8-0.95"), (0.99, "0.95-0.99")):
        if c < top:
            return label
    return ">=0.99"


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else sys.exit(__doc__)
    column = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    tally = defaultdict(lambda: [0, 0.0, 0])  # (source, bucket) -> nodes, sum q, accepted
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        for line in f:
            fields = line.split()
            source, q, accepted = int(fields[0]), float(fields[3]), int(fields[4])
            b = bucket(float(fields[column]))
            for key in ((SOURCE_NAMES[source], b), ("all", b)):
                t = tally[key]
                t[0] += 1
                t[1] += q
                t[2] += accepted
    print("| source | confidence | nodes | mean q | accepted | accepted / q |")
    print("|---|---|---|---|---|---|")
    for source in ("speculator", "widening", "deepening", "copy", "all"):
        for b in ORDER:
            n, q, ok = tally[(source, b)]
            if n:
                print(f"| {source} | {b} | {n} | {q / n:.2f} | {ok / n:.2f} | {ok / q:.2f} |")


if __name__ == "__main__":
    main()
