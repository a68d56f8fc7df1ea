# Summarises ab_flags.sh batch: per arm, round and B, READER / batched AR wall (the bench's
# median of its rounds) and each method's median tokens/s.
import glob, json, os, sys
from collections import defaultdict
out = sys.argv[1]
table = defaultdict(dict)
for path in sorted(glob.glob(out + '/*_*/batch.json')):
    name = os.path.basename(os.path.dirname(path))
    rows = json.load(open(path))['rows']
    by = defaultdict(dict)
    for r in rows:
        by[r['batch']][r['method']] = r['median']
    for b, m in by.items():
        table[name][b] = (m['reader'] / m['ar'], m['ar'], m['reader'])
bs = sorted({b for v in table.values() for b in v})
print('| run | ' + ' | '.join(f'B = {b}: READER / AR (AR, READER tok/s)' for b in bs) + ' |')
print('|---' * (len(bs) + 1) + '|')
for name, v in sorted(table.items()):
    print(f'| {name} | ' + ' | '.join(f'{v[b][0]:.2f} ({v[b][1]:.0f}, {v[b][2]:.0f})' for b in bs) + ' |')
