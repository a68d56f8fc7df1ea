"""Paired by round: READER's geometric mean over sets of speedup (set medians) and of
# Session 53 (decay_ab/): reads DIR/r<round>_<arm>/bench.json as pricing_ab/run.sh writes them.
speedup_total_time, arm B minus arm A. usage: pairs.py DIR A B"""
import glob, json, math, os, sys, statistics as st
d, A, B = sys.argv[1:4]
def gm(path, key):
    b = json.load(open(path))
    v = [r[key] for r in b['summary'] if r['method'] == 'reader']
    return math.exp(sum(math.log(x) for x in v) / len(v))
rounds = sorted({int(os.path.basename(os.path.dirname(p)).split('_')[0][1:]) for p in glob.glob(f'{d}/r*_{A}/bench.json')})
for key in ('speedup', 'speedup_total_time'):
    diffs = []
    for r in rounds:
        pa, pb = f'{d}/r{r}_{A}/bench.json', f'{d}/r{r}_{B}/bench.json'
        if os.path.exists(pa) and os.path.exists(pb):
            a, b = gm(pa, key), gm(pb, key); diffs.append(b - a)
            print(f'{key} r{r}: {A} {a:.3f} {B} {b:.3f} diff {b - a:+.3f}')
    if diffs:
        sd = st.stdev(diffs) if len(diffs) > 1 else 0
        print(f'{key}: mean diff {st.mean(diffs):+.3f} (sd {sd:.3f}, se {sd / math.sqrt(len(diffs)):.3f}), {sum(x > 0 for x in diffs)} of {len(diffs)} rounds ahead\n')
