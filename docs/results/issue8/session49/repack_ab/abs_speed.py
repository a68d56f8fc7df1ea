"""Absolute decode speed of each arm of an A/B in /tmp/ab (r<round>_<arm>/bench.json):
per method, the median tokens/s over each set's runs, and their geometric mean over sets."""
import collections
import json
import math
import statistics
import sys
from pathlib import Path

root = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/ab")
speeds = collections.defaultdict(list)  # (arm, method, set) -> tokens/s of every run
for run in sorted(root.glob("r*_*/bench.json")):
    arm = run.parent.name.split("_", 1)[1]
    for x in json.loads(run.read_text())["runs"]:
        speeds[(arm, x["method"], x["set"])].append(x["tokens_per_s"])
arms = sorted({a for a, _, _ in speeds})
sets = sorted({s for _, _, s in speeds})
print("| arm | method | geomean of set medians, tok/s | " + " | ".join(sets) + " |")
print("|---" * (3 + len(sets)) + "|")
for arm in arms:
    for method in sorted({m for a, m, _ in speeds if a == arm}):
        med = [statistics.median(speeds[(arm, method, s)]) for s in sets]
        geo = math.exp(sum(map(math.log, med)) / len(med))
        print(f"| {arm} | {method} | {geo:.1f} | " + " | ".join(f"{v:.0f}" for v in med) + " |")
