# Reads a READER_STEPLOG run of `bench --batch` (temporary engine log, session 35): each
# STEP line precedes the progress line naming the run it belongs to. Prints, per method and
# step shape, time per step, tokens per step and per ms; and for READER, predicted against
# accepted draft tokens.
import collections, statistics as st, sys
lines = open(sys.argv[1]).read().splitlines()
runs, cur = [], []
for l in lines:
    if l.startswith('STEP'):
        cur.append(l.split())
    elif 'B=' in l and cur:
        runs.append((l.split()[-1], cur)); cur = []
g = collections.defaultdict(list)
pa = collections.defaultdict(lambda: [0.0, 0, 0, 0])
for method, steps in runs:
    for p in steps:
        lens = [int(x) for x in p[1].strip(',').split(',')]
        ms = float(p[2]); pred = p[3]; ndec = int(p[4]); gen = int(p[5]); acc = int(p[6])
        full = len(lens) == 8 and all(x > 0 for x in lens)
        if not full:
            kind = 'prefill' if any(x < 0 for x in lens) else 'tail%d' % len(lens)
        else:
            kind = 'x'.join(str(x) for x in sorted(lens, reverse=True))
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
