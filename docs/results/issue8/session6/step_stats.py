"""Per-step statistics of `reader bench` runs, per set, speculative methods only.

    python3 step_stats.py DIR [DIR ...]     (each DIR holds a bench.json)

Prints tokens committed and drafted per step, decode ms per step (decode + draft +
bookkeeping), tokens per ms of that time, and drafted -> accepted tokens per step for the
speculator, widening and deepening sources.
"""
import json
import sys
from collections import defaultdict


def step_totals(run_dir):
    runs = json.load(open(f"{run_dir}/bench.json"))["runs"]
    by_set = defaultdict(lambda: defaultdict(float))
    for r in runs:
        if r["method"] == "ar" or "steps" not in r:  # AR, and peers (no step counts)
            continue
        t = by_set[r["set"]]
        t["steps"] += r["steps"]
        t["drafted"] += r["drafted_tokens"]
        t["generated"] += r["generated_tokens"]
        t["ms"] += r["decode_ms"] + r.get("draft_ms", 0) + r.get("bookkeeping_ms", 0)
        for source, n in r["drafted_by_source"].items():
            t["drafted_" + source] += n
        for source, n in r["accepted_by_source"].items():
            t["accepted_" + source] += n
    return by_set


for run_dir in sys.argv[1:]:
    print(run_dir)
    for name, t in step_totals(run_dir).items():
        steps = t["steps"]
        sources = " ".join(
            f"{label} {t['drafted_' + source] / steps:.2f}->{t['accepted_' + source] / steps:.2f}"
            for label, source in (("spec", "speculator"), ("wid", "widening"), ("deep", "deepening")))
        print(f"  {name[:10]:10} tok/step {t['generated'] / steps:.2f} "
              f"drafted/step {t['drafted'] / steps:.2f} ms/step {t['ms'] / steps:.2f} "
              f"tok/ms {t['generated'] / t['ms']:.3f} {sources}")
