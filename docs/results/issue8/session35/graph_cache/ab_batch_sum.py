# Summarises ab_flags.sh batch: per arm, round and B, READER / batched AR wall (the bench's
# median of its rounds) and each method's median tokens/s; then, per arm and B, the medians
# over the runs of READER / AR wall / gen / full (as batch.md computes each run's).
import glob, json, os, statistics, sys
from collections import defaultdict
out = sys.argv[1]
table = defaultdict(dict)
ratios = defaultdict(lambda: defaultdict(list))  # arm -> B -> [(wall, gen, full) per run]
# OUT/ARM_ROUND/batch.json as ab_flags.sh writes them, or OUT/ARM_ROUND_batch.json.
paths = glob.glob(out + '/*_*/batch.json') + glob.glob(out + '/*_batch.json')
for path in sorted(paths):
    name = (os.path.basename(os.path.dirname(path)) if path.endswith('/batch.json')
            else os.path.basename(path)[:-len('_batch.json')])
    rows = json.load(open(path))['rows']
    by = defaultdict(dict)
    for r in rows:
        by[r['batch']][r['method']] = r
    for b, m in by.items():
        table[name][b] = (m['reader']['median'] / m['ar']['median'], m['ar']['median'],
                          m['reader']['median'])
        ratios[name.split('_')[0]][b].append(tuple(
            statistics.median(m['reader'][k]) / statistics.median(m['ar'][k])
            for k in ('tokens_per_second', 'generation_tokens_per_second',
                      'full_batch_tokens_per_second')))
bs = sorted({b for v in table.values() for b in v})
print('| run | ' + ' | '.join(f'B = {b}: READER / AR (AR, READER tok/s)' for b in bs) + ' |')
print('|---' * (len(bs) + 1) + '|')
for name, v in sorted(table.items()):
    print(f'| {name} | ' + ' | '.join(f'{v[b][0]:.2f} ({v[b][1]:.0f}, {v[b][2]:.0f})' for b in bs) + ' |')
print()
for arm in sorted(ratios):
    for b in sorted(ratios[arm]):
        med = [statistics.median(r[i] for r in ratios[arm][b]) for i in range(3)]
        print(f'arm {arm} B = {b}, medians of {len(ratios[arm][b])} runs: READER / AR wall {med[0]:.2f}x, '
              f'gen {med[1]:.2f}x, full {med[2]:.2f}x')
