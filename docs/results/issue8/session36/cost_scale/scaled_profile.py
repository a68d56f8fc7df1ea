# The shipped profile with every cost excess over one token scaled by k: c'(n) = 1 + k (c(n) - 1).
#   python3 scaled_profile.py PROFILE K OUT
import json, sys
p = json.load(open(sys.argv[1])); k = float(sys.argv[2])
for c in p['cost']:
    c['curve'] = [[n, 1 + k * (v - 1)] for n, v in c['curve']]
p['cost_in_place'] = [[n, 1 + k * (v - 1)] for n, v in p['cost_in_place']]
json.dump(p, open(sys.argv[3], 'w'), indent=1)
