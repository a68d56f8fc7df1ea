# The copy-oracle bound on sampled texts against greedy ones: per set, the bound (prompt +
# output) of each run's own AR texts, READER's speedup, and its share; medians over seeds.
#   python3 sampled_bound.py DIR [--svg OUT.svg]   (DIR/greedy, DIR/1, DIR/2, DIR/3 from reader bench --bound)
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

# --svg OUT: grouped bars per set (greedy READER, greedy bound, sampled READER, sampled bound).
if '--svg' in sys.argv:
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
    from svg_bars import grouped_bars
    series = ['greedy: reader', 'greedy: bound (p+o)', 'T=0.8: reader', 'T=0.8: bound (p+o)']
    groups = {s: dict(zip(series, [g[s]['speedup'], g[s]['bound'],
                                   st.median(r[s]['speedup'] for r in seeds),
                                   st.median(r[s]['bound'] for r in seeds)])) for s in g}
    grouped_bars(sys.argv[sys.argv.index('--svg') + 1],
                 'READER and the copy-oracle bound of its own texts, greedy and T = 0.8 (medians of seeds 1-3)',
                 groups, series, colours=['#1f77b4', '#aec7e8', '#d62728', '#ff9896'], group=130,
                 legend_step=170)
