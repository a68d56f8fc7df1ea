// The decode probe session 50's programs share (decode_anatomy/dprobe.cpp,
// decode_gaps/alt.cpp, alt2.cpp): SmolLM2 (or any GGUF) with flash attention, `prefill` cached
// tokens on sequence 0, then decodes of n tokens after them, each timed with the greedy pick on
// its first `argmax_rows` rows and its cells dropped again, so every decode starts from the same
// cache.
#pragma once
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <vector>

#include "llama.h"

struct Probe {
  llama_model* model = nullptr;
  llama_context* ctx = nullptr;
  llama_batch batch{};
  int prefill = 512, n_vocab = 0;

  // graph_cache < 0: llama.cpp's default (none kept).
  Probe(const char* path, int prefill_tokens, int threads, bool repack, int graph_cache)
      : prefill(prefill_tokens) {
    llama_backend_init();
    llama_model_params mp = llama_model_default_params();
    mp.use_extra_bufts = repack;
    model = llama_model_load_from_file(path, mp);
    llama_context_params cp = llama_context_default_params();
    cp.n_ctx = cp.n_batch = cp.n_ubatch = prefill + 256;
    cp.n_threads = cp.n_threads_batch = threads;
    cp.flash_attn_type = LLAMA_FLASH_ATTN_TYPE_ENABLED;
    ctx = llama_init_from_model(model, cp);
    if (graph_cache >= 0) llama_set_graph_cache(ctx, graph_cache, 32);
    n_vocab = llama_vocab_n_tokens(llama_model_get_vocab(model));
    batch = llama_batch_init(prefill + 256, 0, 1);
    fill(prefill, 0, 100, 37, false);
    batch.logits[prefill - 1] = 1;
    llama_decode(ctx, batch);
  }

  // n tokens at positions `first`.., ids from (base + i * step + salt) % 5000.
  void fill(int n, int first, int base, int step, bool logits, int salt = 0) {
    batch.n_tokens = 0;
    for (int i = 0; i < n; ++i) {
      batch.token[i] = base + (i * step + salt) % 5000;
      batch.pos[i] = first + i;
      batch.n_seq_id[i] = 1;
      batch.seq_id[i][0] = 0;
      batch.logits[i] = logits;
      batch.n_tokens++;
    }
  }

  // Milliseconds of one decode of the batch as filled, with the pick on its first rows.
  double timed(int argmax_rows) {
    const auto t0 = std::chrono::steady_clock::now();
    llama_decode(ctx, batch);
    long s = 0;
    for (int i = 0; i < argmax_rows; ++i) {
      const float* l = llama_get_logits_ith(ctx, i);
      s += std::max_element(l, l + n_vocab) - l;
    }
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    llama_memory_seq_rm(llama_get_memory(ctx), 0, prefill, -1);
    return ms + (s == -1);  // keeps the picks from being optimised away
  }
};

// The element at num/den of the sorted values (1/2: the median as the programs print it).
inline double sorted_at(std::vector<double> v, size_t num, size_t den) {
  std::sort(v.begin(), v.end());
  return v[v.size() * num / den];
}

inline int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v ? std::atoi(v) : fallback;
}

// Waits `ms` on the main thread, busy (a scalar loop) or asleep.
inline void pause_ms(double ms, bool busy) {
  const auto start = std::chrono::steady_clock::now();
  if (busy) {
    volatile double x = 1;
    while (std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() < ms)
      x = x * 1.0000001;
  } else {
    struct timespec ts{0, static_cast<long>(ms * 1e6)};
    nanosleep(&ts, nullptr);
  }
}
