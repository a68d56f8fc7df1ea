#!/usr/bin/env python3
"""Bar chart (SVG, no plotting library) of serve_bench.py results: total tokens/s per server
and client count.  scripts/serve_plot.py OUT/serve.jsonl [more.jsonl ...] -o OUT/serve.svg
When a (server, clients) pair appears several times, the median is drawn."""
import argparse
import collections
import json
import statistics

ap = argparse.ArgumentParser()
ap.add_argument("inputs", nargs="+")
ap.add_argument("-o", "--out", required=True)
args = ap.parse_args()
vals = collections.defaultdict(list)
for path in args.inputs:
    for line in open(path):
        r = json.loads(line)
        if "clients" in r:
            label = r["label"].split("-rep")[0].replace("-1client", "")
            label = {"ar": "reader-ar", "none": "llama-server", "llama-server-none": "llama-server",
                     "ngram-mod": "llama-server-ngram-mod",
                     "ngram-simple": "llama-server-ngram-simple"}.get(label, label)
            vals[(label, r["clients"])].append(r["total_tok_s"])
servers = list(dict.fromkeys(k[0] for k in vals))
clients = sorted({k[1] for k in vals})
top = max(statistics.median(v) for v in vals.values()) * 1.15
W, H, left, bottom = 760, 360, 60, 40
gw = (W - left - 20) / len(clients)
bw = gw * 0.8 / len(servers)
colors = ["#1f77b4", "#aec7e8", "#d62728", "#ff9896", "#ff7f0e", "#2ca02c"]
out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H + 20 * len(servers)}" font-family="sans-serif" font-size="11">',
       f'<text x="{W / 2}" y="16" text-anchor="middle" font-size="13">Serving throughput (total generated tokens/s)</text>']
for gi, c in enumerate(clients):
    x0 = left + gi * gw + gw * 0.1
    out.append(f'<text x="{left + gi * gw + gw / 2}" y="{H - bottom + 16}" text-anchor="middle">{c} client{"s" if c > 1 else ""}</text>')
    for si, s in enumerate(servers):
        if (s, c) not in vals:
            continue
        v = statistics.median(vals[(s, c)])
        h = (H - bottom - 30) * v / top
        x, y = x0 + si * bw, H - bottom - h
        out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{bw * 0.9:.1f}" height="{h:.1f}" fill="{colors[si % len(colors)]}"/>')
        out.append(f'<text x="{x + bw * 0.45:.1f}" y="{y - 3:.1f}" text-anchor="middle" font-size="9">{v:.0f}</text>')
out.append(f'<line x1="{left}" y1="{H - bottom}" x2="{W - 20}" y2="{H - bottom}" stroke="black"/>')
for si, s in enumerate(servers):
    y = H + 4 + 20 * si
    out.append(f'<rect x="{left}" y="{y}" width="12" height="12" fill="{colors[si % len(colors)]}"/>')
    out.append(f'<text x="{left + 18}" y="{y + 10}">{s}</text>')
out.append("</svg>")
open(args.out, "w").write("\n".join(out))
print("wrote", args.out)
