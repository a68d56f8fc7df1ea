// Shared setup of the session 24 probes: SmolLM2-like settings of reader's (2 threads, flash
// attention, 4096 cells), a batch, and a prefill of `ctx` synthetic tokens on sequence 0.
#pragma once
#include "llama.h"
#include <algorithm>
#include <chrono>
#include <vector>

using Clock = std::chrono::steady_clock;

inline double median(std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }

inline llama_model* probe_model(const char* path) {
  llama_log_set([](ggml_log_level, const char*, void*) {}, nullptr);
  llama_backend_init();
  return llama_model_load_from_file(path, llama_model_default_params());
}

inline llama_context* probe_context(llama_model* m) {
  auto cp = llama_context_default_params();
  cp.n_ctx = 4096; cp.n_batch = 512; cp.n_ubatch = 512; cp.n_threads = 2; cp.n_threads_batch = 2; cp.no_perf = true;
  cp.flash_attn_type = LLAMA_FLASH_ATTN_TYPE_ENABLED;
  return llama_init_from_model(m, cp);
}

// Token `tok` at `pos` on sequence 0, with logits, as batch entry i.
inline void put(llama_batch& b, int i, int tok, int pos) {
  b.token[i] = tok; b.pos[i] = pos; b.n_seq_id[i] = 1; b.seq_id[i][0] = 0; b.logits[i] = 1;
}

inline void prefill(llama_context* c, llama_batch& b, int ctx) {
  for (int pos = 0; pos < ctx; pos += 512) {
    const int k = std::min(512, ctx - pos);
    b.n_tokens = k;
    for (int i = 0; i < k; ++i) put(b, i, 100 + ((pos + i) * 37) % 20000, pos + i);
    llama_decode(c, b);
  }
}
