#!/usr/bin/env python3
"""A profile with BASE's cost and tree shape and CALIBRATED's acceptance counts, so that an
A/B of a drafter change differs only in what the change counts.
usage: merge_profile.py BASE CALIBRATED OUT"""
import json
import sys

base, calibrated, out = sys.argv[1:4] if len(sys.argv) == 4 else sys.exit(__doc__)
with open(base) as f:
    merged = json.load(f)
with open(calibrated) as f:
    new = json.load(f)
for key in new:
    if key.startswith("acceptance"):
        merged[key] = new[key]
with open(out, "w") as f:
    json.dump(merged, f)
print("took from", calibrated, ":", sorted(k for k in new if k.startswith("acceptance")))
