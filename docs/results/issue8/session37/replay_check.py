#!/usr/bin/env python3
"""Checks that a trace replays: for every recorded step, the accepted length that
replay_drafts.judge() derives from the committed text equals the step's commit minus its bonus
token (only a generation's last commit, cut short by a stop or the token limit, may be
shorter). Meant for sampled traces, where each position's draw is fixed by the seed (session 37).

usage: replay_check.py TRACE
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../../../scripts"))
import replay_drafts as R  # noqa: E402

if len(sys.argv) < 2:
    sys.exit(__doc__)
steps = mismatched = 0
for _, prompt, recorded, commits in R.read_generations(sys.argv[1], "reader"):
    last = len(commits) - 2  # index of the generation's last step
    for k, ((_, step, future), commit) in enumerate(
            zip(R.generation_steps(prompt, recorded, commits), commits[1:])):
        depth = R.accepted_depth(R.judge(step, future), set(step["keep"]))
        steps += 1
        mismatched += len(commit) != depth + 1 and not (k == last and len(commit) < depth + 1)
print(f"{steps} steps, {mismatched} whose commit differs from the judged accepted path")
