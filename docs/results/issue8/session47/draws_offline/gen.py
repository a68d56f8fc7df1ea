# Sampled generations (T=0.8, id-order inverse CDF as reader's Sampler) with every row saved.
import json, sys, numpy as np
from llama_cpp import Llama
llm = Llama("models/SmolLM2-135M-Instruct.Q8_0.gguf", n_ctx=1024, n_threads=2, logits_all=True, verbose=False)
qs = [json.loads(l) for l in open("/work/shared/data/mt_bench/question.jsonl")]
rng = np.random.default_rng(int(sys.argv[2]))
out = []
for q in qs[int(sys.argv[1]):int(sys.argv[1]) + 12]:
    prompt = "<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n<|im_start|>user\n" + q["turns"][0] + "<|im_end|>\n<|im_start|>assistant\n"
    toks = llm.tokenize(prompt.encode(), add_bos=False, special=True)
    llm.reset(); llm.eval(toks)
    rows, gen, us = [], [], []
    for t in range(128):
        l = np.array(llm.scores[llm.n_tokens - 1], dtype=np.float64)
        w = np.exp((l - l.max()) / 0.8); w /= w.sum()
        u = rng.random()
        s = int(np.searchsorted(np.cumsum(w), u, side="right"))
        s = min(s, len(w) - 1)
        rows.append(l.astype(np.float32)); gen.append(s); us.append(u)
        if s == llm.token_eos(): break
        llm.eval([s])
    out.append(dict(prompt=toks, gen=gen, u=us, rows=np.array(rows)))
    print(len(gen), flush=True)
np.save(sys.argv[3], np.array(out, dtype=object), allow_pickle=True)
