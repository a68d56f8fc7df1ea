#!/usr/bin/env python3
"""The first experiment's own answers (before `reader datastore generate` existed): 600 GSM8K
train questions (the first), 500 GPTeacher code and 300 roleplay instructions (evenly
strided), sent greedily to `reader serve --method ar --parallel 16 --ctx 1024`, 256 tokens
each. usage: gen_1400.py PORT OUT.jsonl N_GSM N_CODE N_ROLE MAX_TOKENS CONCURRENCY
(session 28 ran: gen_1400.py PORT self1400.jsonl 600 500 300 256 16; 293,759 tokens, 454 s)"""
import json, sys, threading, urllib.request, time, queue
port, out, n_gsm, n_code, n_role, max_tokens, par = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:8])
D='/work/shared/data/'
prompts=[]
for i,l in enumerate(open(D+'gsm8k/train.jsonl')):
    if i>=n_gsm: break
    prompts.append(('gsm8k_train', json.loads(l)['question']))
code=json.load(open(D+'corpus/gpteacher_codegen_instruct.json'))
for r in code[::max(1,len(code)//n_code)][:n_code]:
    prompts.append(('codegen', r['instruction']+('\n\n'+r['input'] if r['input'] else '')))
role=json.load(open(D+'corpus/gpteacher_roleplay_instruct.json'))
for r in role[::max(1,len(role)//n_role)][:n_role]:
    prompts.append(('roleplay', r['instruction']+('\n\n'+r['input'] if r['input'] else '')))
q=queue.Queue()
for i,p in enumerate(prompts): q.put((i,p))
res=[None]*len(prompts); lock=threading.Lock(); done=[0]; t0=time.time(); toks=[0]
def worker():
    while True:
        try: i,(src,p)=q.get_nowait()
        except queue.Empty: return
        body=json.dumps({"messages":[{"role":"user","content":p}],"max_tokens":max_tokens,"temperature":0}).encode()
        rq=urllib.request.Request(f'http://127.0.0.1:{port}/v1/chat/completions',body,{'Content-Type':'application/json'})
        r=json.load(urllib.request.urlopen(rq,timeout=600))
        res[i]={"source":src,"response":r['choices'][0]['message']['content']}
        with lock:
            done[0]+=1; toks[0]+=r['usage']['completion_tokens']
            if done[0]%20==0: print(f"{done[0]}/{len(prompts)} {toks[0]} tok {toks[0]/(time.time()-t0):.0f} tok/s",flush=True)
ts=[threading.Thread(target=worker) for _ in range(par)]
[t.start() for t in ts]; [t.join() for t in ts]
with open(out,'w') as f:
    for r in res: f.write(json.dumps(r)+'\n')
print("done",len(res),toks[0],time.time()-t0)
