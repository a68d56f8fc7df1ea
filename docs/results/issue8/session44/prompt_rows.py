#!/usr/bin/env python3
"""Run with the project's venv (llama-cpp-python, numpy). For each traced generation: the model's top-2 at every prompt position (llama-cpp-python,
logits_all), as rows keyed by the 3 tokens ending there; at each step, whether the row for the
root's 3-token context predicts the committed next token, and whether any candidate at the
root already held it (would recycled rows over the prompt, from a prefill that kept every
position's logits, add right first guesses?).

usage: .venv/bin/python prompt_rows.py TRACE  (reads models/SmolLM2-135M-Instruct.Q8_0.gguf)"""
import sys, numpy as np
import os
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../../..')
sys.path.insert(0, os.path.join(ROOT, 'scripts'))
from collections import defaultdict
from replay_drafts import read_generations, generation_steps, judge
import llama_cpp
llm = llama_cpp.Llama(model_path=os.path.join(ROOT, 'models/SmolLM2-135M-Instruct.Q8_0.gguf'), n_ctx=4096,
                      logits_all=True, verbose=False, n_threads=2)
t = defaultdict(lambda: defaultdict(int))
seen = {}
for name, prompt, steps, commits in read_generations(sys.argv[1], 'reader'):
    key = tuple(prompt)
    if key not in seen:
        llm.reset()
        llm.eval(list(prompt))
        scores = np.asarray(llm.scores[:len(prompt)])
        top = np.argsort(-scores, axis=1)[:, :2]
        rows = {}
        for i in range(2, len(prompt)):
            rows[(prompt[i-2], prompt[i-1], prompt[i])] = (int(top[i, 0]), int(top[i, 1]))
        seen[key] = rows
    rows = seen[key]
    n_prompt = len(prompt)
    for ctx, step, future in generation_steps(prompt, steps, commits):
        if not future: continue
        d = t[name]
        d['steps'] += 1
        k3 = tuple(ctx[-3:])
        root_kids = {tok for p, tok in zip(step['parents'], step['tokens']) if p == 0}
        kept_kids = {tok for i, (p, tok) in enumerate(zip(step['parents'], step['tokens']), 1) if p == 0 and i in step['keep']}
        has = future[0] in root_kids
        d['candidate_right'] += has
        d['kept_right'] += future[0] in kept_kids
        if k3 in rows:
            d['row_found'] += 1
            r = rows[k3]
            d['row_top1_right'] += r[0] == future[0]
            d['row_top2_right'] += future[0] in r
            d['row_right_new'] += (future[0] in r) and not has
            d['row_top1_right_new'] += (r[0] == future[0]) and not has
for name, d in t.items():
    print(name, dict(d))
