#!/usr/bin/env python3
"""Would a copy that resynchronizes after an edit add right guesses? Token by token over each
traced output: the copy's guess (latest longest earlier suffix match, context_copy.h) and a
resync guess that keeps the source pointer of the last strong copy (a match of 3 or more)
through a divergence (a substituted token skipped, a deletion of up to 8 source tokens
re-aligned, an insertion waited out), made only where the copy's match is under 3. Counts per
set: positions, the copy right, weak-match positions and the copy right there, resync guesses
made, right, and right where the copy was wrong.

usage: resync_check.py TRACE
"""
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../../scripts"))
from copy_ambiguity import find_copy  # noqa: E402
from replay_drafts import read_generations  # noqa: E402

STRONG, LOOKAHEAD = 3, 8


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else sys.exit(__doc__)
    tally = defaultdict(lambda: defaultdict(int))
    for name, prompt, _steps, commits in read_generations(path, "reader"):
        output = [t for c in commits for t in c]
        pointer = None  # the resync guess's source position
        for i in range(1, len(output)):
            context, nxt = prompt + output[:i], output[i]
            source, match, _ = find_copy(context) or (None, 0, 0)
            copy_right = source is not None and context[source] == nxt
            strong = match >= STRONG
            t = tally[name]
            t["n"] += 1
            t["std_ok"] += copy_right
            if strong:
                t["strong"] += 1
            else:
                resync_right = pointer is not None and pointer < len(context) and \
                    context[pointer] == nxt
                t["weak"] += 1
                t["weak_std_ok"] += copy_right
                t["rs_guess"] += pointer is not None
                t["rs_ok"] += resync_right
                t["rs_ok_std_wrong"] += resync_right and not copy_right
            # After `nxt`: a strong copy sets the pointer past its token (past the one it
            # replaced, if it diverged); otherwise the pointer follows, re-aligns or waits.
            if strong:
                pointer = source + 1
            elif pointer is not None:
                if pointer < len(context) and context[pointer] == nxt:
                    pointer += 1
                else:
                    j = next((j for j in range(1, LOOKAHEAD + 1) if pointer + j < len(context)
                              and context[pointer + j] == nxt), None)
                    if j is not None:
                        pointer += j + 1
    for name, t in tally.items():
        print(name, dict(t))


if __name__ == "__main__":
    main()
