#!/usr/bin/env python3
"""Would recycled rows over the prompt add right first guesses? Run with the project's venv
(llama-cpp-python, numpy). For each traced generation, the model's top-2 at every prompt
position (a prefill that keeps every position's logits), as rows keyed by the 3 tokens ending
there, as the speculator keys its rows (recycling.cpp); at each step, whether the row for the
root's 3-token context exists, holds the committed next token, and holds it where no candidate
at the root did. Counts per set.

usage: .venv/bin/python prompt_rows.py TRACE   (reads models/SmolLM2-135M-Instruct.Q8_0.gguf)
"""
import os
import sys
from collections import defaultdict

import llama_cpp
import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../..")
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from replay_drafts import generation_steps, read_generations  # noqa: E402


def prompt_rows(llm, prompt):
    """{(3 tokens ending at position i): the model's top-2 next tokens there}."""
    llm.reset()
    llm.eval(list(prompt))
    top = np.argsort(-np.asarray(llm.scores[:len(prompt)]), axis=1)[:, :2]
    return {(prompt[i - 2], prompt[i - 1], prompt[i]): (int(top[i, 0]), int(top[i, 1]))
            for i in range(2, len(prompt))}


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else sys.exit(__doc__)
    llm = llama_cpp.Llama(model_path=os.path.join(ROOT, "models/SmolLM2-135M-Instruct.Q8_0.gguf"),
                          n_ctx=4096, logits_all=True, verbose=False, n_threads=2)
    tally = defaultdict(lambda: defaultdict(int))
    rows_of = {}
    for name, prompt, steps, commits in read_generations(path, "reader"):
        if tuple(prompt) not in rows_of:
            rows_of[tuple(prompt)] = prompt_rows(llm, prompt)
        rows = rows_of[tuple(prompt)]
        for context, step, future in generation_steps(prompt, steps, commits):
            if not future:
                continue
            t = tally[name]
            t["steps"] += 1
            at_root = {tok for parent, tok in zip(step["parents"], step["tokens"]) if parent == 0}
            kept = {tok for i, (parent, tok) in enumerate(zip(step["parents"], step["tokens"]), 1)
                    if parent == 0 and i in step["keep"]}
            held = future[0] in at_root
            t["candidate_right"] += held
            t["kept_right"] += future[0] in kept
            row = rows.get(tuple(context[-3:]))
            if row:
                t["row_found"] += 1
                t["row_top1_right"] += row[0] == future[0]
                t["row_top2_right"] += future[0] in row
                t["row_right_new"] += future[0] in row and not held
                t["row_top1_right_new"] += row[0] == future[0] and not held
    for name, t in tally.items():
        print(name, dict(t))


if __name__ == "__main__":
    main()
