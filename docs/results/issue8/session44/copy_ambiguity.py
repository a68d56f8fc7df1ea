#!/usr/bin/env python3
"""How often the copy path's first token is right, by its match length and by how many
earlier places hold the matched suffix (its ambiguity), per set, from a `reader bench
--trace` run. The copy is recomputed here as find_context_copy (context_copy.cpp) computes
it; every step of the trace counts, whatever the policy verified.

usage: copy_ambiguity.py OUT/drafts.jsonl[.gz] [--method reader]
"""
import argparse
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../../scripts"))
from replay_drafts import SOURCE_NAMES, generation_steps, read_generations  # noqa: E402

MAX_MATCH, WINDOW = 32, 8192
COPY = SOURCE_NAMES.index("copy")  # DraftSource::kCopy in the trace's "sources"


def find_copy(context):
    """(position the copy copies next, match length, earlier places holding that suffix), as
    find_context_copy chooses it; None if the last token never occurred before."""
    n = len(context)
    if n < 2:
        return None
    last = context[-1]
    best, best_len, lengths = -1, 0, []
    for p in range(n - 2, max(0, n - 1 - WINDOW) - 1, -1):
        if context[p] != last:
            continue
        length = 1
        while length < MAX_MATCH and p - length >= 0 and \
                context[p - length] == context[n - 1 - length]:
            length += 1
        lengths.append(length)
        if length > best_len:
            best_len, best = length, p
            if best_len >= MAX_MATCH:
                break
    if best < 0:
        return None
    return best + 1, best_len, sum(1 for length in lengths if length >= best_len)


def copy_with_places(context):
    """(first copied token, match length, earlier places holding that suffix); None if none."""
    found = find_copy(context)
    return None if found is None else (context[found[0]], found[1], found[2])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("--method", default="reader")
    args = ap.parse_args()
    # (set, match bucket, places bucket) -> [right, tried]
    tally = defaultdict(lambda: [0, 0])
    for name, prompt, steps, commits in read_generations(args.trace, args.method):
        for context, step, future in generation_steps(prompt, steps, commits):
            found = copy_with_places(context)
            if found is None or not future:
                continue
            token, match, places = found
            # Another source's child of the root with this token: then the copy's node is
            # that one and its estimate stands (reader_drafter.cpp); only the copy's own
            # first tokens are weighed as copies.
            shared = any(parent == 0 and t == token and source != COPY
                         for parent, t, source in zip(step["parents"], step["tokens"],
                                                      step["sources"]))
            right = int(token == future[0])
            mb = min(match, 4)
            pb = 1 if places == 1 else (2 if places <= 3 else 4)
            kind = "shared" if shared else "alone"
            for key in ((name, kind, mb, pb), ("all", kind, mb, pb)):
                tally[key][0] += right
                tally[key][1] += 1
    sets = sorted({k[0] for k in tally})
    print("| set | first token | match | places | right / tried | share |")
    print("|---|---|---|---|---|---|")
    for s in sets:
        for kind in ("alone", "shared"):
            for mb in (1, 2, 3, 4):
                for pb in (1, 2, 4):
                    r, t = tally[(s, kind, mb, pb)]
                    if t:
                        label = {1: "1", 2: "2-3", 4: "4+"}[pb]
                        print(f"| {s} | {kind} | {mb if mb < 4 else '4+'} | {label} | "
                              f"{r} / {t} | {r / t:.2f} |")


if __name__ == "__main__":
    main()
