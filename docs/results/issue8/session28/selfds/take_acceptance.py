#!/usr/bin/env python3
"""The A/B's B profile: profile A with the acceptance counts (greedy and sampled) of a profile
tuned with another datastore, so that A and B differ by the counts and not by the cost curve
or the template. usage: take_acceptance.py A.json TUNED.json OUT.json"""
import json, sys
a, tuned, out = sys.argv[1:4]
p, t = json.load(open(a)), json.load(open(tuned))
for key in ("acceptance", "acceptance_sampled", "calibration"):
    p[key] = t[key]
json.dump(p, open(out, "w"), indent=1)
