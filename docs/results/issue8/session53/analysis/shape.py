"""Per set and verified size n: the real cost (verify ms per step of size n / AR's ms per step, pooled
over prompts) against the price the policy used for the size it chose (trace's cost[n-1])."""
import gzip, json, sys
sys.path.insert(0, 'scripts')  # run from the repository root
import replay_drafts as R
from collections import defaultdict
d = sys.argv[1]
bench = json.load(gzip.open(d + '/bench.json.gz'))
ar_ms = defaultdict(lambda: [0.0, 0]); real = defaultdict(lambda: defaultdict(lambda: [0.0, 0]))
for x in bench['runs']:
    if x['method'] == 'ar':
        ar_ms[x['set']][0] += x['decode_ms']; ar_ms[x['set']][1] += x['steps']
    if x['method'] == 'reader':
        for n, (ms, c) in enumerate(zip(x['verify_ms_by_size'], x['verified_histogram'])):
            real[x['set']][n][0] += ms; real[x['set']][n][1] += c
priced = defaultdict(lambda: defaultdict(lambda: [0.0, 0]))
for s, p, steps, commits in R.read_generations(d + '/drafts.jsonl.gz', 'reader'):
    for st in steps:
        n = len(st['keep']); priced[s][n][0] += st['cost'][n - 1]; priced[s][n][1] += 1
buckets = [(1, 1), (2, 2), (3, 4), (5, 6), (7, 9), (10, 16)]
print("| set | " + " | ".join(f"n {a}-{b}" if a != b else f"n {a}" for a, b in buckets) + " | (real / priced, steps) |")
for s in real:
    base = ar_ms[s][0] / ar_ms[s][1]
    cells = []
    for a, b in buckets:
        rm = sum(real[s][n][0] for n in range(a, b + 1) if n < 40); rc = sum(real[s][n][1] for n in range(a, b + 1) if n < 40)
        pm = sum(priced[s][n][0] for n in range(a, b + 1)); pc = sum(priced[s][n][1] for n in range(a, b + 1))
        cells.append(f"{rm / rc / base:.2f} / {pm / pc:.2f} ({rc})" if rc and pc else "-")
    print(f"| {s} | " + " | ".join(cells) + " |")
