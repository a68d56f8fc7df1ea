#!/usr/bin/env python3
"""Per verified size, what a READER step cost in each arm of session 38's A/B, relative to the
same run's one-token steps (AR's and READER's pooled): dividing by the same run's one-token
cost takes out the host's drift between runs, which is larger than the kernel's effect.

    step_costs.py AB_DIR
"""
import statistics
import sys
from collections import defaultdict

from ab_sum import load_arms

BUCKETS = [(1, 1), (2, 3), (4, 5), (6, 9), (10, 17), (18, 64)]


def by_bucket(runs):
    """Verification ms and steps of one bench's runs, summed by BUCKETS of verified size."""
    ms, steps = defaultdict(float), defaultdict(int)
    for r in runs:
        for n, (t, k) in enumerate(zip(r["verify_ms_by_size"], r["verified_histogram"])):
            for b in BUCKETS:
                if b[0] <= n <= b[1]:
                    ms[b] += t
                    steps[b] += k
    return ms, steps


def main():
    rel = defaultdict(list)  # (arm, bucket) -> per-run relative cost
    one = defaultdict(list)
    for arm, by_round in sorted(load_arms(sys.argv[1]).items()):
        for _, runs in sorted(by_round.items()):
            ms, steps = by_bucket(runs)
            base = ms[1, 1] / steps[1, 1]
            one[arm].append(base)
            for b in BUCKETS:
                if steps[b]:
                    rel[arm, b].append((ms[b] / steps[b]) / base)
    print("one-token step, ms by run: " + "; ".join(f"{a}: " + " ".join(f"{x:.2f}" for x in one[a]) for a in "AB"))
    print("| tokens verified | A: cost / one-token step (runs) | B | B / A (medians) |")
    print("|---|---|---|---|")
    for b in BUCKETS[1:]:
        a, bb = rel["A", b], rel["B", b]
        if not a or not bb:
            continue
        print(f"| {b[0]}-{b[1]} | {' '.join(f'{x:.3f}' for x in a)} | {' '.join(f'{x:.3f}' for x in bb)} | "
              f"{statistics.median(bb) / statistics.median(a):.3f} |")


if __name__ == "__main__":
    main()
