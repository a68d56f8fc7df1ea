// twoctx MODEL CTX STEPS MODE: two contexts on one model, both advancing one token per step.
// A decodes one token a step. B decodes one token (timed), then MODE: "kv" decodes k in 2..8
// tokens and keeps a random prefix (as READER's rejections), "none" nothing more.
#include "probe.h"
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

int main(int argc, char** argv) {
  const char* path = argv[1]; int ctx = atoi(argv[2]); int steps = atoi(argv[3]); std::string mode = argv[4];
  llama_model* m = probe_model(path);
  llama_context* c[2] = {probe_context(m), probe_context(m)};
  for (auto* x : c) llama_set_graph_cache(x, 8, 32);
  llama_batch b = llama_batch_init(512, 0, 1);
  for (auto* x : c) prefill(x, b, ctx);
  std::mt19937 rng(1);
  std::vector<double> t[2];
  int pos[2] = {ctx, ctx};
  for (int s = 0; s < steps; ++s) {
    for (int w = 0; w < 2; ++w) {
      int first = (s % 2) ? 1 - w : w;  // alternate who goes first
      b.n_tokens = 1; put(b, 0, 500 + pos[first] % 9000, pos[first]);
      auto a = Clock::now(); llama_decode(c[first], b); llama_get_logits_ith(c[first], 0);
      t[first].push_back(std::chrono::duration<double, std::milli>(Clock::now() - a).count());
      pos[first] += 1;
      if (first == 1 && mode == "kv") {
        int k = 2 + rng() % 7, keep = rng() % k;  // keep a prefix of the k drafted
        b.n_tokens = k; for (int i = 0; i < k; ++i) put(b, i, 700 + (pos[1] + i) % 9000, pos[1] + i);
        llama_decode(c[1], b);
        llama_memory_seq_rm(llama_get_memory(c[1]), 0, pos[1] + keep, -1);
        pos[1] += keep;
        pos[0] += keep;  // A keeps the same context length
        if (keep) { b.n_tokens = keep; for (int i = 0; i < keep; ++i) put(b, i, 700 + (pos[0] - keep + i) % 9000, pos[0] - keep + i); llama_decode(c[0], b); }
      }
    }
  }
  printf("%s: A (plain) %.3f  B %.3f  ratio %.3f  final pos %d %d\n", mode.c_str(), median(t[0]), median(t[1]), median(t[1]) / median(t[0]), pos[0], pos[1]);
}
