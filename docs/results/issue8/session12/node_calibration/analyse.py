"""Calibration of READER's per-node acceptance estimates, from a READER_NODE_TRACE run.

    READER_NODE_TRACE=1 reader bench --methods ar,reader --sets rag,gsm8k,mt_bench,summarization,code_edit,humaneval \
        --prompt-offset 20 --prompts 8 -n 128 -o OUT 2> nodetrace.err      (with trace.diff applied)
    python3 analyse.py nodetrace.err

One NODE line per drafted node whose parent was accepted (so it was really tried): its depth,
the drafter's raw estimate q, the conditional estimate the policy used (its path alpha over
its parent's), whether it was accepted, and its kind. Sets are attributed from the progress
bar's 10% updates, so roughly.
"""
import collections
import re
import sys

rows, cur = [], "?"
for line in open(sys.argv[1]):
    for part in line.split("\r"):
        m = re.search(r"bench\s+\d+%\s+[\d.]+s (\S+)", part)
        if m:
            cur = m[1]
        m = re.match(r"NODE depth=(\d+) q=([-\d.]+) used=([\d.]+) ok=(\d) src=(\d)", part)
        if m:
            rows.append(dict(set=cur, d=int(m[1]), u=float(m[3]), ok=int(m[4]), src=int(m[5])))


def table(key, title):
    g = collections.defaultdict(lambda: [0, 0, 0.0])
    for r in rows:
        k = key(r)
        g[k][0] += 1
        g[k][1] += r["ok"]
        g[k][2] += r["u"]
    print(f"\n| {title} | nodes tried | predicted | accepted |\n|---|---|---|---|")
    for k in sorted(g):
        n, ok, u = g[k]
        print(f"| {k} | {n} | {u / n:.2f} | {ok / n:.2f} |")


print(len(rows), "nodes tried")
table(lambda r: min(r["d"], 8), "depth (8: 8 or more)")
table(lambda r: f"{min(r['u'], 0.99) // 0.1 / 10:.1f}-{min(r['u'], 0.99) // 0.1 / 10 + 0.1:.1f}", "used estimate")
table(lambda r: {1: "speculator", 2: "widening", 3: "deepening"}.get(r["src"], r["src"]), "source")
table(lambda r: r["set"], "set (approximate)")
