# Reads a READER_STEPLOG run of `bench --batch` (temporary engine log, steplog.diff): each STEP
# line precedes the progress line naming the run it belongs to.
#   steps.py LOG          per method and step shape: time per step, tokens per step and per ms;
#                         for READER, predicted against accepted draft tokens
#   steps.py LOG --after  full-batch steps (all 1 or all 2 tokens per sequence) by the shape of
#                         the step before them: median and mean decode ms (graph_cache/steplog/)
import collections, statistics as st, sys


def read_runs(path):
    runs, cur = [], []
    for l in open(path).read().splitlines():
        if l.startswith('STEP'):
            cur.append(l.split())
        elif 'B=' in l and cur:
            runs.append((l.split()[-1], cur)); cur = []
    return runs


def lengths(p):
    return [int(x) for x in p[1].strip(',').split(',')]


def by_shape(runs):
    g = collections.defaultdict(list)
    pa = collections.defaultdict(lambda: [0.0, 0, 0, 0])
    for method, steps in runs:
        for p in steps:
            lens = lengths(p)
            ms = float(p[2]); pred = p[3]; gen = int(p[5]); acc = int(p[6])
            full = len(lens) == 8 and all(x > 0 for x in lens)
            if not full:
                kind = 'prefill' if any(x < 0 for x in lens) else 'tail%d' % len(lens)
            else:
                total = sum(lens)
                kind = 'all1' if total == 8 else ('t%02d' % total)
            g[(method, kind)].append((ms, gen, sum(abs(x) for x in lens)))
            if method == 'reader' and pred != '-':
                pv = sum(float(x) for x in pred.strip(',').split(','))
                key = 'full' if full else kind[:4]
                a = pa[key]; a[0] += pv; a[1] += acc; a[2] += sum(x - 1 for x in lens if x > 0); a[3] += 1
    for k, v in sorted(g.items()):
        T = sum(m for m, _, _ in v); G = sum(x for _, x, _ in v)
        print('%-7s %-8s n=%4d ms/step med %6.2f mean %6.2f tokens/step %5.2f tokens/ms %.3f rows/step %.1f' % (
            k[0], k[1], len(v), st.median(m for m, _, _ in v), T / len(v), G / len(v), G / T, sum(n for _, _, n in v) / len(v)))
    for k, a in pa.items():
        print('reader %-6s steps %d drafted %d predicted %.1f accepted %d (%.2f of predicted)' % (k, a[3], a[2], a[0], a[1], a[1] / max(a[0], 1e-9)))


def by_shape_before(runs):
    g = collections.defaultdict(list)
    for method, steps in runs:
        prev = None
        for p in steps:
            lens = lengths(p)
            kind = None
            if len(lens) == 8 and all(x > 0 for x in lens):
                kind = 'all1' if max(lens) == 1 else ('all2' if set(lens) == {2} else 'other')
            if kind and prev:
                g[(method, kind, 'after ' + prev)].append(float(p[2]))
            prev = kind or 'nonfull'
    for k, v in sorted(g.items()):
        print(k, len(v), 'median %.2f mean %.2f' % (st.median(v), st.mean(v)))


runs = read_runs(sys.argv[1])
(by_shape_before if '--after' in sys.argv[2:] else by_shape)(runs)
