"""The copy path's match (src/retrieval/context_copy.cpp), for the trace analyses here: the
context's longest earlier repeat of its suffix, latest first, over the last 8,192 tokens."""


def longest_suffix_match(ctx, maxm=32, window=8192):
    """(match length, index just after the match) of the latest longest earlier repeat."""
    n = len(ctx); last = ctx[-1]; best = 0; bp = None
    for p in range(n - 2, max(-1, n - 2 - window), -1):
        if ctx[p] != last: continue
        l = 1
        while l < maxm and p - l >= 0 and ctx[p - l] == ctx[n - 1 - l]: l += 1
        if l > best: best, bp = l, p + 1
    return best, bp
