#!/usr/bin/env python3
"""The hand-scaled arm of session 51's pricing A/B: a profile whose every cost excess c(n) - 1
(each context's curve and the in-place one) is 1.7 times the given profile's.
usage: profile_s17.py IN_PROFILE OUT_PROFILE"""
import json
import sys

p = json.load(open(sys.argv[1]))
s = 1.7
for c in p["cost"]:
    c["curve"] = [[n, 1 + s * (v - 1)] for n, v in c["curve"]]
p["cost_in_place"] = [[n, 1 + s * (v - 1)] for n, v in p["cost_in_place"]]
json.dump(p, open(sys.argv[2], "w"))
