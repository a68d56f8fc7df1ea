# Per run: READER's speedup over AR per set as the ratio of summed decode times (every prompt
# weighted by its length), their geometric mean, the geometric mean of bench.md's per-set
# medians, and drafted tokens per step. Usage: python3 agg.py RUN_DIR...
import json, math, re, sys

for d in sys.argv[1:]:
    j = json.load(open(d + "/bench.json"))
    by = {}
    for x in j["runs"]:
        a = by.setdefault(x["set"], {})
        a[x["method"]] = a.get(x["method"], 0) + x["decode_ms"]
    rat = {s: by[s]["ar"] / by[s]["reader"] for s in by}
    geo = math.exp(sum(math.log(v) for v in rat.values()) / len(rat))
    md = open(d + "/bench.md").read()
    med = [float(m.group(1)) for m in re.finditer(r"\| \w+ \| reader \| [\d.]+ \| ([\d.]+)x", md)]
    mgeo = math.exp(sum(map(math.log, med)) / len(med))
    reader = [x for x in j["runs"] if x["method"] == "reader"]
    dps = sum(x["drafted_tokens"] for x in reader) / sum(x["steps"] for x in reader)
    print(f"{d}: summed-time geomean {geo:.4f}, median geomean {mgeo:.4f}, drafted/step {dps:.2f} |",
          " ".join(f"{s} {v:.3f}" for s, v in sorted(rat.items())))
