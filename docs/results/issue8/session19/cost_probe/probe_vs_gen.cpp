// c(n) as the probe measures it (sizes rotated, each after the previous size, ending at 32)
// against n decoded right after a one-token decode, as in generation.
#include <chrono>
#include <cstdio>
#include <algorithm>
#include <vector>
#include "reader/model.h"
#include "verify/prefill.h"
using namespace reader;
using Clock = std::chrono::steady_clock;
int main(int argc, char** argv) {
  ModelOptions o; o.path = argv[1]; o.n_ctx = 4096; o.n_threads = 2;
  auto m = Model::load(o);
  Tokens toks; for (int i = 0; i < 2048; ++i) toks.push_back(100 + (i * 7919) % 20000);
  const int seq0[] = {0};
  const int ctx = 256;
  m->kv_clear(); prefill(*m, TokenSpan(toks).first(ctx), 0);
  auto dec = [&](int n) {
    auto b = chain_batch(toks, ctx, n, seq0);
    auto t0 = Clock::now(); m->decode(b); auto t1 = Clock::now();
    m->kv_seq_rm(0, ctx, -1);
    return std::chrono::duration<double, std::milli>(t1 - t0).count();
  };
  const std::vector<int> sizes = {1, 2, 3, 4, 5, 6, 8, 12, 16, 32};
  for (int rep = 0; rep < 2; ++rep) {
    std::vector<std::vector<double>> rot(sizes.size()), after1(sizes.size()), after_same(sizes.size());
    for (int r = 0; r < 30; ++r) {
      for (size_t k = 0; k < sizes.size(); ++k) { size_t s = (k + r) % sizes.size(); rot[s].push_back(dec(sizes[s])); }
      for (size_t s = 0; s < sizes.size(); ++s) { dec(1); after1[s].push_back(dec(sizes[s])); }
      for (size_t s = 0; s < sizes.size(); ++s) { dec(sizes[s]); after_same[s].push_back(dec(sizes[s])); }
    }
    auto med = [](std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; };
    const double r1 = med(rot[0]), a1 = med(after_same[0]);
    for (size_t s = 0; s < sizes.size(); ++s)
      std::printf("n=%2d rotated %.2f ms c=%.3f | after a 1-token decode %.2f ms, /AR(1 after 1) %.3f | after same %.2f\n", sizes[s], med(rot[s]), med(rot[s]) / r1, med(after1[s]), med(after1[s]) / a1, med(after_same[s]));
    std::puts("");
  }
}
