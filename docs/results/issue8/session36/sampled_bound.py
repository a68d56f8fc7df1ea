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
    bars = [('greedy: reader', '#1f77b4'), ('greedy: bound (p+o)', '#aec7e8'),
            ('T=0.8: reader', '#d62728'), ('T=0.8: bound (p+o)', '#ff9896')]
    vals = {s: [g[s]['speedup'], g[s]['bound'], st.median(r[s]['speedup'] for r in seeds),
                st.median(r[s]['bound'] for r in seeds)] for s in g}
    top = max(max(v) for v in vals.values()) * 1.05
    h, left, bottom, group = 380, 50, 60, 130
    w = left + 20 + len(vals) * group
    bw = (group - 20) / len(bars)
    y = lambda v: h - bottom - (h - bottom - 30) * v / top
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="11">',
           '<text x="10" y="18" font-size="14">READER and the copy-oracle bound of its own texts, greedy and T = 0.8 (medians of seeds 1-3)</text>']
    for v in [x / 2 for x in range(int(top * 2) + 1)]:
        out.append(f'<line x1="{left}" x2="{w - 10}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="{"#000" if v == 1 else "#ddd"}"/>')
        out.append(f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v:.1f}x</text>')
    for gi, (s, v) in enumerate(vals.items()):
        x0 = left + 10 + gi * group
        for bi, (name, colour) in enumerate(bars):
            out.append(f'<rect x="{x0 + bi * bw:.1f}" y="{y(v[bi]):.1f}" width="{bw - 1:.1f}" height="{y(0) - y(v[bi]):.1f}" fill="{colour}"><title>{name} {s} {v[bi]:.2f}x</title></rect>')
        out.append(f'<text x="{x0 + (group - 20) / 2:.1f}" y="{h - bottom + 16}" text-anchor="middle">{s}</text>')
    for bi, (name, colour) in enumerate(bars):
        lx = left + bi * 170
        out.append(f'<rect x="{lx}" y="{h - 35}" width="10" height="10" fill="{colour}"/><text x="{lx + 14}" y="{h - 26}">{name}</text>')
    out.append('</svg>')
    open(sys.argv[sys.argv.index('--svg') + 1], 'w').write('\n'.join(out) + '\n')
