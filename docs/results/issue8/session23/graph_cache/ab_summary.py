"""READER with the graph cache (row "reader") against READER without it (row
"reader+prediction" under bench_ab_hack.diff with RX_GC_AB=0), in one bench process.
Usage: python3 ab_summary.py RUN_DIR..."""
import collections
import json
import statistics
import sys

for d in sys.argv[1:]:
    j = json.load(open(d + '/bench.json'))
    total = collections.defaultdict(float)
    per = collections.defaultdict(dict)
    same = collections.Counter()
    for run in j['runs']:
        total[run['method']] += run['decode_ms']
        per[(run['set'], run['id'])][run['method']] = run['decode_ms']
        same[run['method']] += run['identical_to_ar']
    ratios = [v['reader+prediction'] / v['reader'] for v in per.values()]
    print(f"{d}: decode s AR {total['ar'] / 1e3:.1f}, READER cached {total['reader'] / 1e3:.1f}, "
          f"uncached {total['reader+prediction'] / 1e3:.1f}; uncached / cached: total "
          f"{total['reader+prediction'] / total['reader']:.3f}, per-prompt median "
          f"{statistics.median(ratios):.3f}; identical to AR {dict(same)} of {len(per)}")
