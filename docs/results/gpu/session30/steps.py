#!/usr/bin/env python3
"""Session 30's GPU check (pad.tar.gz from scripts/device/check.sh pad): READER / AR by summed
decode time per set, and READER's mean step time by tokens verified over its one-token step.
usage: steps.py DIR_WITH_UNPACKED_pad/"""
import collections, json, math, sys

root = sys.argv[1] if len(sys.argv) > 1 else "."
SETS = ["rag", "humaneval", "gsm8k", "mt_bench", "code_edit", "multi_turn", "summarization"]
for run in ["off_1", "on_1", "off_2", "on_2"]:
    b = json.load(open(f"{root}/pad/{run}/bench.json"))
    sp = {}
    for s in SETS:
        rate = {}
        for m in ["ar", "reader"]:
            rs = [r for r in b["runs"] if r["set"] == s and r["method"] == m]
            rate[m] = sum(r["generated_tokens"] for r in rs) / sum(r["decode_ms"] for r in rs)
        sp[s] = rate["reader"] / rate["ar"]
    geo = math.exp(sum(map(math.log, sp.values())) / len(sp))
    print(f"{run}: " + " ".join(f"{s} {v:.2f}" for s, v in sp.items()) + f"; geomean {geo:.3f}")
    ms, n = collections.defaultdict(float), collections.defaultdict(int)
    for r in b["runs"]:
        if r["method"] == "reader":
            for k, (h, t) in enumerate(zip(r["verified_histogram"], r["verify_ms_by_size"])):
                ms[k] += t
                n[k] += h
    one = ms[1] / n[1]
    print(f"  steps by tokens verified, time / one-token step ({one:.2f} ms), count: " +
          " ".join(f"{k}: {ms[k] / n[k] / one:.1f} ({n[k]})" for k in sorted(n) if n[k]))
