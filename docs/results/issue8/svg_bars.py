"""Grouped bar charts as plain SVG (no plotting package in the venv), for the issue 8 scripts.

grouped_bars(path, title, groups, series): groups maps a group name (a set) to {series: value};
one bar per series in each group, in `series` order; 1.0 drawn in black."""
COLOURS = ["#1f77b4", "#aec7e8", "#9467bd", "#ff7f0e", "#ffbb78", "#2ca02c", "#d62728"]


def grouped_bars(path, title, groups, series, colours=COLOURS, group=120, legend_step=230):
    top = max(max(v.values()) for v in groups.values()) * 1.05
    h, left, bottom = 420, 50, 60
    w = left + 20 + len(groups) * group
    bar = (group - 20) / len(series)
    y = lambda v: h - bottom - (h - bottom - 30) * v / top
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="11">',
           f'<text x="10" y="18" font-size="14">{title}</text>']
    for v in [x / 2 for x in range(int(top * 2) + 1)]:
        out.append(f'<line x1="{left}" x2="{w - 10}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="{"#000" if v == 1 else "#ddd"}"/>')
        out.append(f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v:.1f}x</text>')
    for gi, (name, values) in enumerate(groups.items()):
        x0 = left + 10 + gi * group
        for si, s in enumerate(series):
            v = values[s]
            out.append(f'<rect x="{x0 + si * bar:.1f}" y="{y(v):.1f}" width="{bar - 1:.1f}" height="{y(0) - y(v):.1f}" fill="{colours[si % len(colours)]}"><title>{s} {name} {v:.2f}x</title></rect>')
        out.append(f'<text x="{x0 + (group - 20) / 2:.1f}" y="{h - bottom + 16}" text-anchor="middle">{name}</text>')
    per_row = max(1, 920 // legend_step)
    for si, s in enumerate(series):
        lx = left + (si % per_row) * legend_step
        ly = h - 26 + (si // per_row) * 14
        out.append(f'<rect x="{lx}" y="{ly - 9}" width="10" height="10" fill="{colours[si % len(colours)]}"/><text x="{lx + 14}" y="{ly}">{s}</text>')
    out.append("</svg>")
    open(path, "w").write("\n".join(out) + "\n")
