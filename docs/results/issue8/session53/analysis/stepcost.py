"""Per set, pooled over prompts: drafted nodes per step, tokens per step and what a step cost,
in autoregressive steps of the method's own baseline (READER: reader's AR; llama.cpp's peers:
llama:ar). A peer's steps are its tokens / mean_accepted.
usage: stepcost.py DIR (DIR/bench.json.gz)"""
import gzip, json, sys
from collections import defaultdict
b = json.load(gzip.open(sys.argv[1] + '/bench.json.gz'))
agg = defaultdict(lambda: defaultdict(lambda: [0.0, 0.0, 0.0, 0.0]))  # time, tokens, steps, drafted
for x in b['runs']:
    g = agg[x['set']][x['method']]
    steps = x['steps'] if x.get('steps') else x['generated_tokens'] / max(1e-9, x['mean_accepted'])
    g[0] += x['generated_tokens'] / x['tokens_per_s']; g[1] += x['generated_tokens']; g[2] += steps
    g[3] += x['drafted_tokens']
pairs = (('reader', 'ar'), ('llama-lookup', 'llama:ar'), ('llama:ngram-map-k n3 m8', 'llama:ar'))
print("| set | " + " | ".join(f"{m}: nodes / tokens / cost per step" for m, _ in pairs) + " |")
print("|---|" + "---|" * len(pairs))
for s, m in agg.items():
    cells = []
    for meth, base in pairs:
        t, tok, st, dr = m[meth]; bt, btok, _, _ = m[base]
        cells.append(f"{1 + dr / st:.2f} / {tok / st:.2f} / {t / st / (bt / btok):.2f}")
    print(f"| {s} | " + " | ".join(cells) + " |")
