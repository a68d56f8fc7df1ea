import json, sys, collections
sys.argv_backup = list(sys.argv)
from sim import *
llm = Llama(model_path=sys.argv[1], vocab_only=True, verbose=False)
tok = lambda s: llm.tokenize(s.encode(), add_bos=False, special=False)
items = json.load(open(sys.argv[2]))
hist = collections.defaultdict(collections.Counter)
for it in items:
    P = tok(it['prompt']); O = tok(it['output'])[:128]
    # walk token by token (every position a step start) and record what each proposal would accept
    cur = None
    for t in range(len(O)):
        ctx = P + O[:t]
        d, lens = draft_counts(ctx, 1)
        L = lens[0] if lens else 0
        a_counts = accept(d, O[t:])
        key = 'L>=3' if L >= 3 else 'L<3'
        hist[key+' counts'][min(a_counts, 8)] += 1
        if cur is not None and L < 3:
            hist['L<3 cursor'][min(accept(P[cur:cur+D], O[t:]), 8)] += 1
            hist['L<3 cursor+1'][min(accept(P[cur+1:cur+1+D], O[t:]), 8)] += 1
        # cursor update with the true token
        x = O[t]
        if cur is not None and cur < len(P) and P[cur] == x: cur += 1; continue
        found = None
        if cur is not None:
            for j in range(cur, min(len(P), cur + 24)):
                if P[j] == x: found = j; break
        if found is None:
            tail = O[max(0, t + 1 - MAXSUF):t + 1]
            for Lq in range(len(tail), 1, -1):
                s = tail[-Lq:]
                pos = [i for i in range(len(P) - Lq + 1) if P[i:i + Lq] == s]
                if pos: found = pos[-1] + Lq - 1; break
        if found is None:
            cur = cur + 1 if cur is not None else None
        else:
            cur = found + 1
for k in sorted(hist):
    h = hist[k]; n = sum(h.values())
    print(k, n, 'P(a>=1)=%.2f P(a>=2)=%.2f P(a>=4)=%.2f mean=%.2f' % (
        sum(v for a, v in h.items() if a >= 1) / n, sum(v for a, v in h.items() if a >= 2) / n,
        sum(v for a, v in h.items() if a >= 4) / n, sum(a * v for a, v in h.items()) / n))
