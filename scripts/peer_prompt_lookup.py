#!/usr/bin/env python3
"""llama-cpp-python's LlamaPromptLookupDecoding as a peer of `reader bench --peers`.

Runs one greedy generation of an already chat-templated prompt (read verbatim from
--prompt-file) through llama_cpp.Llama, with prompt-lookup drafting or without
(--no-draft: the same Python loop's plain decoding), and prints one JSON line:
  {"tokens": N, "decode_tokens": N-1, "decode_s": S, "steps": K, "drafted": D,
   "text": "...", "token_ids": [...]}
decode_s runs from the end of the prompt's evaluation to the last token, which took
decode_tokens forward-pass tokens after the first (the first comes from the prompt's logits).
Run with the project venv's python (scripts/setup.sh installs numpy for it).
"""
import argparse
import json
import sys
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", required=True)
    ap.add_argument("--prompt-file", required=True)
    ap.add_argument("-n", "--max-tokens", type=int, required=True)
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--ctx", type=int, default=4096)
    ap.add_argument("--max-ngram-size", type=int, default=2)
    ap.add_argument("--num-pred-tokens", type=int, default=10)
    ap.add_argument("--no-draft", action="store_true")
    ap.add_argument("--flash-attn", action="store_true")
    ap.add_argument("--repack", action="store_true")
    ap.add_argument("--gpu-layers", type=int, default=0)
    a = ap.parse_args()
    if a.max_tokens < 1:
        sys.exit("peer_prompt_lookup.py: -n must be at least 1")

    try:
        import llama_cpp
        import llama_cpp.llama_cpp as lib
        from llama_cpp.llama_speculative import LlamaPromptLookupDecoding
    except ImportError as e:  # numpy or the package missing
        sys.exit(f"peer_prompt_lookup.py: {e} (run scripts/setup.sh)")

    # Weight repacking as reader runs (ModelOptions::extra_buffers) and as the C++ peers get
    # it (--repack | --no-repack): every peer runs the same kernels.
    default_params = lib.llama_model_default_params

    def model_params():
        p = default_params()
        p.use_extra_bufts = a.repack
        return p

    lib.llama_model_default_params = model_params

    class CountingLookup(LlamaPromptLookupDecoding):
        drafted = 0

        def __call__(self, input_ids, /, **kwargs):
            d = super().__call__(input_ids, **kwargs)
            CountingLookup.drafted += len(d)
            return d

    with open(a.prompt_file, "rb") as f:
        prompt = f.read()
    threads = a.threads if a.threads > 0 else None
    llm = llama_cpp.Llama(
        model_path=a.model,
        n_ctx=a.ctx,
        n_batch=512,
        n_ubatch=512,
        n_threads=threads,
        n_threads_batch=threads,
        flash_attn=a.flash_attn,
        n_gpu_layers=a.gpu_layers,
        verbose=False,
        draft_model=None
        if a.no_draft
        else CountingLookup(max_ngram_size=a.max_ngram_size, num_pred_tokens=a.num_pred_tokens),
    )
    vocab = lib.llama_model_get_vocab(llm.model)
    tokens = llm.tokenize(prompt, add_bos=True, special=True)

    evals = []  # end time of every forward pass; the first is the prompt's
    plain_eval = llm.eval

    def timed_eval(batch):
        plain_eval(batch)
        evals.append(time.perf_counter())

    llm.eval = timed_eval
    out = []
    t_end = None
    for tok in llm.generate(tokens, temp=0.0, repeat_penalty=1.0):
        t_end = time.perf_counter()
        if lib.llama_vocab_is_eog(vocab, tok):
            break
        out.append(int(tok))
        if len(out) >= a.max_tokens:
            break
    decode_s = (t_end - evals[0]) if t_end is not None else 0.0
    text = llm.detokenize(out).decode("utf-8", errors="replace")
    print(
        json.dumps(
            {
                "tokens": len(out),
                "decode_tokens": max(len(out) - 1, 0),
                "decode_s": decode_s,
                "steps": len(evals),
                "drafted": CountingLookup.drafted,
                "text": text,
                "token_ids": out,
            }
        )
    )


if __name__ == "__main__":
    main()
