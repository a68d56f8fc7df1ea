"""kernel_cost.svg: decode time against tokens per decode, session 18's kernel and the 16-row
one (README's table: `reader bench --cost-curve --repeats 5`, two alternated rounds, mean of
the two). Plain SVG, no plotting library. Usage: python3 plot_cost.py > kernel_cost.svg"""
N = [1, 2, 4, 8, 16, 32, 64]
OLD = [(10.11 + 10.14) / 2, (12.25 + 12.47) / 2, (15.18 + 15.20) / 2, (24.86 + 24.56) / 2,
       (45.59 + 46.32) / 2, (86.08 + 86.58) / 2, (158.87 + 160.38) / 2]
NEW = [(9.95 + 9.90) / 2, (12.16 + 12.01) / 2, (14.42 + 14.15) / 2, (19.61 + 19.52) / 2,
       (34.42 + 34.04) / 2, (62.39 + 61.95) / 2, (111.61 + 110.34) / 2]
W, H, L, B, T, R = 620, 360, 60, 50, 40, 170
ymax = 170


def x(i):  # tokens on a log2 axis
    return L + (W - L - R) * i / (len(N) - 1)


def y(ms):
    return H - B - (H - B - T) * ms / ymax


out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
       f'<text x="{L + 10}" y="20" font-size="14">SmolLM2-135M Q8_0, one decode (Intel Xeon, 2 threads, 512 cached)</text>',
       f'<line x1="{L}" y1="{H - B}" x2="{W - R}" y2="{H - B}" stroke="black"/>',
       f'<line x1="{L}" y1="{T}" x2="{L}" y2="{H - B}" stroke="black"/>',
       f'<text x="{(L + W - R) / 2 - 50}" y="{H - 12}">tokens per decode</text>',
       f'<text x="12" y="{T - 8}">ms</text>']
for i, n in enumerate(N):
    out.append(f'<text x="{x(i) - 6}" y="{H - B + 16}">{n}</text>')
for v in range(0, ymax + 1, 40):
    out.append(f'<text x="{L - 30}" y="{y(v) + 4}">{v}</text>')
    out.append(f'<line x1="{L}" y1="{y(v)}" x2="{W - R}" y2="{y(v)}" stroke="#ddd"/>')
for data, color, name, row in ((OLD, '#c0392b', "session 18's kernel", 0), (NEW, '#2471a3', '16-row kernel', 1)):
    pts = ' '.join(f'{x(i):.1f},{y(v):.1f}' for i, v in enumerate(data))
    out.append(f'<polyline points="{pts}" fill="none" stroke="{color}" stroke-width="2"/>')
    for i, v in enumerate(data):
        out.append(f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="3" fill="{color}"/>')
    out.append(f'<line x1="{W - R + 10}" y1="{T + 20 + 20 * row}" x2="{W - R + 30}" y2="{T + 20 + 20 * row}" stroke="{color}" stroke-width="2"/>')
    out.append(f'<text x="{W - R + 35}" y="{T + 24 + 20 * row}">{name}</text>')
out.append('</svg>')
print('\n'.join(out))
