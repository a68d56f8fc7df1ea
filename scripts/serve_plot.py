#!/usr/bin/env python3
"""Bar chart (SVG, no plotting library) of serve_bench.py results: total tokens/s per server
and client count, and with --table a markdown table of the medians.
  scripts/serve_plot.py OUT/serve.jsonl [more.jsonl ...] -o OUT/serve.svg [--table OUT/serve.md]
When a (server, clients) pair appears several times (labels SERVER-repN, one per round), the
median is drawn; the table adds READER's ratio to each peer within each round, whose spread
shows how far one round can be trusted."""
import argparse
import collections
import glob
import json
import os
import re
import statistics

ap = argparse.ArgumentParser()
ap.add_argument("inputs", nargs="+")
ap.add_argument("-o", "--out", required=True)
ap.add_argument("--table", help="also write a markdown table of medians here")
args = ap.parse_args()
vals = collections.defaultdict(list)
rows = collections.defaultdict(dict)  # (label, clients) -> round -> result
for path in args.inputs:
    for line in open(path):
        r = json.loads(line)
        if "clients" in r:
            label, _, rnd = r["label"].partition("-rep")
            label = label.replace("-1client", "")
            label = {"ar": "reader-ar", "none": "llama-server", "llama-server-none": "llama-server",
                     "ngram-mod": "llama-server-ngram-mod",
                     "ngram-simple": "llama-server-ngram-simple"}.get(label, label)
            vals[(label, r["clients"])].append(r["total_tok_s"])
            rows[(label, r["clients"])][rnd or str(len(rows[(label, r["clients"])]))] = r


def read_metrics(path):
    """Prometheus text (reader serve's /metrics) -> {name: value}, labelled series skipped."""
    out = {}
    for line in open(path):
        if line.startswith("#") or "{" in line or not line.strip():
            continue
        name, value = line.split()
        out[name] = float(value)
    return out


def engine_work_table(inputs):
    """What each reader server's engine did in each phase, from the /metrics snapshots
    serve_compare.sh takes after every phase (LABEL.repN.metricsC.txt beside serve.jsonl):
    equal steps and drafts with unequal decode time mean the machine, not the server, moved."""
    lines = []
    for d in dict.fromkeys(os.path.dirname(os.path.abspath(p)) for p in inputs):
        snaps = {}
        for f in glob.glob(os.path.join(d, "*.rep*.metrics*.txt")):
            m = re.match(r"(.+)\.rep(\d+)\.metrics(\d+)\.txt$", os.path.basename(f))
            if m:
                snaps[(m[1], int(m[2]), int(m[3]))] = read_metrics(f)
        if not snaps:
            continue
        lines += ["", "Engine work per phase (differences of /metrics between phases):", "",
                  "| server | round | clients | steps | drafted | accepted | decode s | ms per step |",
                  "|---|---|---|---|---|---|---|---|"]
        for (label, rnd, c) in sorted(snaps):
            cur = snaps[(label, rnd, c)]
            earlier = [k for k in snaps if k[0] == label and k[1] == rnd and k[2] < c]
            prev = snaps[max(earlier)] if earlier else {}
            delta = {k: cur.get(k, 0) - prev.get(k, 0) for k in cur}
            steps = delta.get("reader_steps_total", 0)
            dec = delta.get("reader_decode_seconds_total", 0)
            lines.append("| %s | %d | %d | %d | %d | %d | %.2f | %.1f |" % (
                label, rnd, c, steps, delta.get("reader_drafted_tokens_total", 0),
                delta.get("reader_accepted_tokens_total", 0), dec,
                1000 * dec / steps if steps else 0))
    return lines


servers = list(dict.fromkeys(k[0] for k in vals))
clients = sorted({k[1] for k in vals})
if args.table:
    med = statistics.median
    md = ["| server | clients | rounds | total tok/s (median) | per-round total tok/s | "
          "TTFT median (s) | per-request tok/s | reader / this server, per round |",
          "|---|---|---|---|---|---|---|---|"]
    for c in clients:
        for s_ in servers:
            rr = rows.get((s_, c))
            if not rr:
                continue
            ratios = ""
            ref = rows.get(("reader", c), {})
            if s_ != "reader" and ref:
                rs = sorted(ref[k]["total_tok_s"] / rr[k]["total_tok_s"] for k in rr if k in ref)
                if rs:
                    ratios = "%.2fx (%.2f-%.2f)" % (med(rs), rs[0], rs[-1])
            md.append("| %s | %d | %d | %.1f | %s | %.3f | %.1f | %s |" % (
                s_, c, len(rr), med(v["total_tok_s"] for v in rr.values()),
                ", ".join("%.0f" % rr[k]["total_tok_s"] for k in sorted(rr)),
                med(v["ttft_median_s"] for v in rr.values()),
                med(v["per_request_tok_s_median"] for v in rr.values()), ratios))
    md += engine_work_table(args.inputs)
    open(args.table, "w").write("\n".join(md) + "\n")
    print("\n".join(md))
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
