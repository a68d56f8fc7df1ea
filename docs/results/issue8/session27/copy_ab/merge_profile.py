#!/usr/bin/env python3
"""The A/B's B profile: profile A with the copy path switched on (shape d_copy) and the copy
source's calibration counts taken from a profile tuned with it, so that A and B differ only
by the copy. usage: merge_profile.py A.json TUNED.json D_COPY OUT.json"""
import json, sys
a, tuned, d_copy, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
p, t = json.load(open(a)), json.load(open(tuned))
p["shape"]["d_copy"] = d_copy
for key in ("acceptance", "acceptance_sampled"):
    p[key] = [c for c in p[key] if c["source"] != "copy"] + [c for c in t[key] if c["source"] == "copy"]
json.dump(p, open(out, "w"), indent=1)
