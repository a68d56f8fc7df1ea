// Decodes n tokens (a chain) at L cached tokens, `reps` times, then prints the median ms.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "reader/model.h"
#include "verify/prefill.h"
using namespace reader;
using Clock = std::chrono::steady_clock;
int main(int argc, char** argv) {
  ModelOptions o; o.path = argv[1]; o.n_ctx = 4096; o.n_threads = 2;
  auto m = Model::load(o);
  const int n = atoi(argv[2]), L = atoi(argv[3]), reps = atoi(argv[4]);
  const int alt = argc > 5 ? atoi(argv[5]) : 0;  // if > 0: alternate with decodes of this size
  Tokens toks = probe_tokens(*m, L + 64);
  prefill(*m, TokenSpan(toks).first(L), 0);
  int s0[1] = {0};
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    for (int pass = 0; pass < (alt ? 2 : 1); ++pass) {
      const int k = pass == 0 ? n : alt;
      std::vector<BatchToken> b;
      for (int i = 0; i < k; ++i) b.push_back({toks[L + i], L + i, s0, true});
      auto a = Clock::now(); m->decode(b);
      if (pass == 0) t.push_back(std::chrono::duration<double, std::milli>(Clock::now() - a).count());
      m->kv_seq_rm(0, L, -1);
    }
  }
  std::sort(t.begin(), t.end());
  std::printf("n=%d L=%d alt=%d median %.3f ms\n", n, L, alt, t[t.size() / 2]);
}
