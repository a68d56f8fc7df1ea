import json,sys
from collections import defaultdict
for f in sys.argv[1:]:
    d=json.load(open(f))
    ms=defaultdict(float); cnt=defaultdict(int); arms=0; arn=0
    for r in d['runs']:
        if r['method']=='ar': arms+=r['verify_ms']; arn+=r['steps']
        if r['method']!='reader': continue
        for n,(t,c) in enumerate(zip(r['verify_ms_by_size'], r['verified_histogram'])):
            if c: ms[n]+=t; cnt[n]+=c
    base=arms/arn
    print(f, 'AR one-token %.2f ms'%base, ' '.join('%d:%.2f'%(n, ms[n]/cnt[n]/base) for n in sorted(ms) if cnt[n]>=10))
