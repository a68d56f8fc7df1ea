"""Sampling check summary: READER's speedup per set at T = 0.8 (median over seeds 1-3, and
their range), as a share of the report's greedy median (median over the report runs) and of
the greedy run on the same prompts. Usage: python3 summary.py SAMPLING_DIR REPORT_RUN..."""
import json
import statistics
import sys


def speedups(run):
    j = json.load(open(run + '/bench.json'))
    sp = {s['set']: s['speedup'] for s in j['summary'] if s['method'] == 'reader'}
    ident = sum(1 for r in j['runs'] if r['method'] == 'reader' and r['identical_to_ar'])
    total = sum(1 for r in j['runs'] if r['method'] == 'reader')
    return sp, ident, total


def main():
    d, reports = sys.argv[1], sys.argv[2:]
    greedy, gi, gt = speedups(d + '/greedy')
    seeds = [speedups(f'{d}/{s}') for s in (1, 2, 3)]
    report = [speedups(r)[0] for r in reports]
    print(f'identical to AR: greedy {gi}/{gt}, sampled {sum(s[1] for s in seeds)}/{sum(s[2] for s in seeds)}')
    print('set | sampled median [range] | % of report greedy | greedy same 6 | % of it')
    for s in greedy:
        v = [x[0][s] for x in seeds]
        med = statistics.median(v)
        rep = statistics.median(r[s] for r in report)
        print(f'{s} | {med:.2f}x [{min(v):.2f}-{max(v):.2f}] | {100 * med / rep:.0f}% | {greedy[s]:.2f}x | {100 * med / greedy[s]:.0f}%')


if __name__ == '__main__':
    main()
