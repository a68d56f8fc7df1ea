# The copy-oracle bound on sampled texts against greedy ones: per set, the bound (prompt +
# output) of each run's own AR texts, READER's speedup, and its share; medians over seeds.
#   python3 sampled_bound.py DIR   (DIR/greedy, DIR/1, DIR/2, DIR/3 from reader bench --bound)
import statistics as st, sys, os
d = sys.argv[1]
def rows(run):
    out = {}
    for line in open(os.path.join(d, run, 'bench.md')):
        c = [x.strip() for x in line.split('|')]
        if len(c) > 5 and c[2] == 'reader': out.setdefault(c[1], {})['speedup'] = float(c[4].rstrip('x'))
        if len(c) == 7 and c[2].endswith('x') and c[5].endswith('%'):
            out.setdefault(c[1], {})['bound'] = float(c[2].rstrip('x'))
    return out
g = rows('greedy'); seeds = [rows(s) for s in ('1', '2', '3') if os.path.isdir(os.path.join(d, s))]
print('set | greedy: reader / bound (share) | T=0.8 median over seeds: reader / bound (share) | sampled bound / greedy bound')
for s in g:
    sp = st.median(r[s]['speedup'] for r in seeds); b = st.median(r[s]['bound'] for r in seeds)
    print(f"{s} | {g[s]['speedup']:.2f}x / {g[s]['bound']:.2f}x ({g[s]['speedup']/g[s]['bound']:.0%}) | "
          f"{sp:.2f}x / {b:.2f}x ({sp/b:.0%}) | {b/g[s]['bound']:.0%}")
