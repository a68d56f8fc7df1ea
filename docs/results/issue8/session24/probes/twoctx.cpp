// twoctx MODEL CTX STEPS MODE: two contexts on one model, both advancing one token per step.
// A decodes one token a step. B decodes one token (timed), then MODE: "kv" decodes k in 2..8
// tokens and keeps a random prefix (as READER's rejections), "none" nothing more.
#include "llama.h"
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>
using Clock = std::chrono::steady_clock;
static double med(std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }
int main(int argc, char** argv) {
  const char* path = argv[1]; int ctx = atoi(argv[2]); int steps = atoi(argv[3]); std::string mode = argv[4];
  llama_log_set([](ggml_log_level, const char*, void*) {}, nullptr);
  llama_backend_init();
  llama_model* m = llama_model_load_from_file(path, llama_model_default_params());
  auto cp = llama_context_default_params();
  cp.n_ctx = 4096; cp.n_batch = 512; cp.n_ubatch = 512; cp.n_threads = 2; cp.n_threads_batch = 2; cp.no_perf = true;
  cp.flash_attn_type = LLAMA_FLASH_ATTN_TYPE_ENABLED;
  llama_context* c[2] = {llama_init_from_model(m, cp), llama_init_from_model(m, cp)};
  for (auto* x : c) llama_set_graph_cache(x, 8, 32);
  llama_batch b = llama_batch_init(512, 0, 1);
  auto put = [&](int i, int tok, int pos) { b.token[i]=tok; b.pos[i]=pos; b.n_seq_id[i]=1; b.seq_id[i][0]=0; b.logits[i]=1; };
  for (auto* x : c) for (int pos = 0; pos < ctx; pos += 512) { int k = std::min(512, ctx - pos); b.n_tokens = k; for (int i = 0; i < k; ++i) put(i, 100 + ((pos+i) * 37) % 20000, pos+i); llama_decode(x, b); }
  std::mt19937 rng(1);
  std::vector<double> t[2];
  int pos[2] = {ctx, ctx};
  for (int s = 0; s < steps; ++s) {
    for (int w = 0; w < 2; ++w) {
      int first = (s % 2) ? 1 - w : w;  // alternate who goes first
      b.n_tokens = 1; put(0, 500 + pos[first] % 9000, pos[first]);
      auto a = Clock::now(); llama_decode(c[first], b); llama_get_logits_ith(c[first], 0);
      t[first].push_back(std::chrono::duration<double, std::milli>(Clock::now() - a).count());
      pos[first] += 1;
      if (first == 1 && mode == "kv") {
        int k = 2 + rng() % 7, keep = rng() % k;  // keep a prefix of the k drafted
        b.n_tokens = k; for (int i = 0; i < k; ++i) put(i, 700 + (pos[1] + i) % 9000, pos[1] + i);
        llama_decode(c[1], b);
        llama_memory_seq_rm(llama_get_memory(c[1]), 0, pos[1] + keep, -1);
        pos[1] += keep;
        pos[0] += keep;  // A keeps the same context length
        if (keep) { b.n_tokens = keep; for (int i = 0; i < keep; ++i) put(i, 700 + (pos[0] - keep + i) % 9000, pos[0] - keep + i); llama_decode(c[0], b); }
      }
    }
  }
  printf("%s: A (plain) %.3f  B %.3f  ratio %.3f  final pos %d %d\n", mode.c_str(), med(t[0]), med(t[1]), med(t[1]) / med(t[0]), pos[0], pos[1]);
}
