"""What the session 31 trace analyses share: the context scans behind gap2/gap3 and the copy
behind deepcopy/sim_anchor (replay_drafts.py reads the trace)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../../../../scripts'))


def occurrences(ctx, future, max_run=32, max_match=16):
    """(k, m) for each place p in ctx where the next tokens occur: k of them (up to max_run)
    start at p, after m tokens (up to max_match) that match those before the context's end."""
    n = len(ctx)
    for p in range(n):
        k = 0
        while k < len(future) and k < max_run and p + k < n and ctx[p + k] == future[k]:
            k += 1
        if k == 0:
            continue
        m = 0
        while m < p and ctx[p - 1 - m] == ctx[n - 1 - m] and m < max_match:
            m += 1
        yield k, m


def latest_copy(ctx, maxmatch=32, d=16, skip=0):
    """The context's longest suffix that occurred earlier, newest first among equals:
    (match length, up to d tokens that followed it), as context_copy.h finds it. With `skip`,
    the context without its last `skip` tokens is matched, and the continuation starts that
    many tokens past the occurrence (session 37's resynchronised copy)."""
    n = len(ctx) - skip
    best = (0, None)
    for e in range(n - 1, 0, -1):  # an occurrence ending before e, its continuation from e
        m = 0
        while m < maxmatch and m < e and ctx[e - 1 - m] == ctx[n - 1 - m]:
            m += 1
        if m > best[0]:
            best = (m, e)
        if m >= maxmatch:
            break
    if not best[1]:
        return 0, []
    return best[0], ctx[best[1] + skip:best[1] + skip + d]
