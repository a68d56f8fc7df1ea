import json,sys,collections,math
for d in sys.argv[1:]:
    runs=json.load(open(d+'/bench.json'))['runs']
    by=collections.defaultdict(lambda: collections.Counter())
    sp={}
    ar={}
    for r in runs:
        if r['method']=='ar': ar[(r['set'],r['id'])]=r; continue
        c=by[r['set']]
        for k,v in r['drafted_by_source'].items(): c['d_'+k]+=v
        for k,v in r['accepted_by_source'].items(): c['a_'+k]+=v
        c['steps']+=r['steps']; c['gen']+=r['generated_tokens']; c['dec']+=r['decode_ms']
        c['ardec']+=ar[(r['set'],r['id'])]['decode_ms']*r['generated_tokens']/max(1,ar[(r['set'],r['id'])]['generated_tokens'])
        c['ident']+=r['identical_to_ar']; c['n']+=1
    g=[]
    for s,c in sorted(by.items()):
        sp=c['ardec']/c['dec']; g.append(sp)
        print('%-14s spd %.3f tok/step %.2f spec %d/%d (%.2f) wid %d/%d deep %d/%d ident %d/%d'%(s,sp,c['gen']/c['steps'],c['a_speculator'],c['d_speculator'],c['a_speculator']/max(1,c['d_speculator']),c['a_widening'],c['d_widening'],c['a_deepening'],c['d_deepening'],c['ident'],c['n']))
    print(d,'geomean %.4f'%math.exp(sum(map(math.log,g))/len(g)))
