import json,sys,glob,re
def m(f):
    d={}
    for l in open(f):
        if l.startswith('#') or not l.strip(): continue
        k,v=l.rsplit(' ',1); d[k]=float(v)
    return d
keys=['reader_steps_total','reader_generated_tokens_total','reader_busy_seconds_total','reader_decode_seconds_total','reader_draft_seconds_total','reader_drafted_tokens_total','reader_accepted_tokens_total','reader_prefix_reused_tokens_total']
for run in sys.argv[1:]:
    prev={k:0 for k in keys}
    rows=[json.loads(l) for l in open(run+'/serve.jsonl')]
    for i,ph in enumerate(['1','8','32']):
        try: cur=m(f'{run}/m{ph}.txt')
        except FileNotFoundError: continue
        d={k.replace('reader_','').replace('_total',''):cur.get(k,0)-prev.get(k,0) for k in keys}
        prev=cur
        r=[x for x in rows if x['clients']==int(ph)][0]
        other=d['busy_seconds']-d['decode_seconds']-d['draft_seconds']
        print(f"{run:10s} c={ph:2s} tok/s={r['total_tok_s']:6.1f} wall={r['wall_s']:5.1f} steps={d['steps']:5.0f} gen={d['generated_tokens']:5.0f} busy={d['busy_seconds']:5.2f} dec={d['decode_seconds']:5.2f} draft={d['draft_seconds']:5.3f} other={other:5.2f} drafted={d['drafted_tokens']:5.0f} acc={d['accepted_tokens']:5.0f} reused={d['prefix_reused_tokens']:5.0f} ms/step={1000*d['decode_seconds']/max(1,d['steps']):.1f}")
