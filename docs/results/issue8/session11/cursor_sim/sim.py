# Offline: how many output tokens a copy drafter would get per step, counts-based suffix
# matching (READER's trie, prompt+output) against the same plus a copy cursor that resyncs
# after divergence. Acceptance is exact from recorded outputs (tokenized text).
import json, sys, collections
from llama_cpp import Llama
C = {1:1.0,2:1.26,3:1.45,4:1.61,5:1.8,6:1.9,7:2.0,8:2.05,9:2.4,10:2.5,11:2.6,12:2.7,13:2.8,14:2.9,15:3.0,16:3.28}
D = 8; MAXSUF = 8
def counts_next(ctx, maxsuf=MAXSUF):
    n = len(ctx)
    for L in range(min(maxsuf, n-1), 0, -1):
        suf = ctx[n-L:]
        cnt = collections.Counter()
        for i in range(0, n-L):
            if ctx[i:i+L] == suf: cnt[ctx[i+L]] += 1
        if cnt:
            best = sorted(cnt.items(), key=lambda kv: (-kv[1], kv[0]))[0]
            return best[0], L, best[1], sum(cnt.values())
    return None, 0, 0, 0
def draft_counts(ctx, minlen):
    d = []; c = list(ctx); lens = []
    for _ in range(D):
        tok, L, k, tot = counts_next(c)
        if tok is None or L < minlen: break
        d.append(tok); c.append(tok); lens.append(L)
    return d, lens
def accept(d, fut):
    a = 0
    while a < len(d) and a < len(fut) and d[a] == fut[a]: a += 1
    return a
def run(P, O, method, minlen=2, window=24):
    t = 0; cost = 0.0; steps = 0; cur = None  # cur: index into P of the next expected token
    while t < len(O):
        ctx = P + O[:t]
        d, lens = draft_counts(ctx, minlen)
        if method == 'cursor' and cur is not None and (not lens or lens[0] < 3):
            d = P[cur:cur+D]
        # no drafting when the draft is empty
        a = accept(d, O[t:])
        n = len(d)
        cost += C[min(n+1, 16)]; steps += 1
        committed = O[t:t+a+1]; t += a+1
        # update cursor: follow committed tokens through P
        if method == 'cursor':
            for x in committed:
                if cur is not None and cur < len(P) and P[cur] == x:
                    cur += 1; continue
                # look ahead for x near the cursor (deletion / resync after insertion)
                found = None
                if cur is not None:
                    for j in range(cur, min(len(P), cur+window)):
                        if P[j] == x: found = j; break
                if found is None:
                    # fall back to the longest suffix match's position in P (most recent)
                    c2 = P + O[:t]
                    # locate longest suffix of output-so-far in P
                    best = None
                    tail = O[max(0,t-MAXSUF):t]
                    for L in range(len(tail), 1, -1):
                        s = tail[-L:]
                        pos = [i for i in range(len(P)-L+1) if P[i:i+L] == s]
                        if pos: best = pos[-1]+L; break
                    found = best - 1 if best is not None else None
                    if found is None:
                        # substitution guess: skip one source token
                        cur = cur + 1 if cur is not None else None
                        continue
                cur = found + 1
    return len(O)/cost, len(O)/steps
if __name__ == '__main__':
    llm = Llama(model_path=sys.argv[1], vocab_only=True, verbose=False)
    tok = lambda s: llm.tokenize(s.encode(), add_bos=False, special=False)
    items = json.load(open(sys.argv[2]))
    res = collections.defaultdict(list)
    for it in items:
        P = tok(it['prompt']); O = tok(it['output'])[:128]
        for m in ('counts', 'cursor'):
            s, tps = run(P, O, m); res[m].append(s)
        print(it['id'], ' '.join('%s %.2f' % (m, res[m][-1]) for m in res), flush=True)
    import math
    for m in res: print(m, 'geomean %.3f' % math.exp(sum(map(math.log, res[m]))/len(res[m])))
