# READER / batched AR (wall / gen / full) and drafting share at each B, per arm and round,
# with medians over the rounds: python3 summary.py DIR (DIR/{A,B}_{1,2,3}/batch.md).
import glob, os, statistics as st, sys
from collections import defaultdict
rows = defaultdict(lambda: defaultdict(list))
for f in sorted(glob.glob(os.path.join(sys.argv[1], '*_*', 'batch.md'))):
    arm = os.path.basename(os.path.dirname(f))
    for line in open(f):
        c = [x.strip() for x in line.split('|')]
        if len(c) > 8 and c[1].isdigit():
            ratios = [float(x.strip().rstrip('x')) for x in c[4].split('/')]
            print(f'{arm} B={c[1]}: wall / gen / full {c[4]}, drafting share {c[6]}, identical {c[7]}')
            rows[arm[0]][int(c[1])].append(ratios)
for arm in sorted(rows):
    for b in sorted(rows[arm]):
        med = [st.median(r[i] for r in rows[arm][b]) for i in range(3)]
        print(f'arm {arm} B={b} medians: wall {med[0]:.2f}x gen {med[1]:.2f}x full {med[2]:.2f}x')
