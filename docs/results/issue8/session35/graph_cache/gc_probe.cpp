// Does the graph cache (ModelOptions::graph_cache, scripts/patches/llama.cpp-graph-cache.patch)
// pay with one KV stream per sequence? Two models in one process, the same 8 streams x 256
// cached tokens each, one keeping 8 graphs and one none; decodes of 1 and 2 tokens per
// sequence in a fixed pattern (1,1,2,1,2,2,...), alternating between the two models each
// round. Prints the median ms by (graph cache, shape, shape before). Also one stream (a
// unified cache, 1 sequence) with 1 and 4 tokens. Build as session32/probe/HOWTO.md says.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "reader/model.h"
#include "reader/sampling.h"
#include "verify/prefill.h"
using namespace reader;
using Clock = std::chrono::steady_clock;

static double med(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Streams {
  static constexpr int ctx = 256;
  std::unique_ptr<Model> m;
  Tokens toks;
  int n_seq;
  Token sink = 0;
  Streams(int graph_cache, int n_seq_) : n_seq(n_seq_) {
    ModelOptions o;
    o.path = default_model_path();
    o.n_threads = 2;
    o.n_ctx = 1024;
    o.kv_unified = n_seq == 1;
    o.n_seq_max = n_seq;
    o.graph_cache = graph_cache;
    m = Model::load(o);
    toks = probe_tokens(*m, 400);
    for (int s = 0; s < n_seq; ++s) prefill(*m, TokenSpan(toks).first(ctx), s);
  }
  double decode(int each) {
    std::vector<BatchToken> b;
    std::vector<std::vector<int>> ids(static_cast<size_t>(n_seq));
    for (int s = 0; s < n_seq; ++s) ids[static_cast<size_t>(s)] = {s};
    for (int s = 0; s < n_seq; ++s)
      for (int i = 0; i < each; ++i)
        b.push_back({toks[static_cast<size_t>(ctx + i)], ctx + i, ids[static_cast<size_t>(s)], true});
    const auto a = Clock::now();
    m->decode(b);
    for (int i = 0; i < static_cast<int>(b.size()); ++i) sink ^= argmax(m->logits(i), m->n_vocab());
    const double d = std::chrono::duration<double, std::milli>(Clock::now() - a).count();
    for (int s = 0; s < n_seq; ++s) m->kv_seq_rm(s, ctx, -1);
    return d;
  }
};

int main() {
  for (const int n_seq : {8, 1}) {
    const int big = n_seq == 1 ? 4 : 2;
    Streams with(8, n_seq), without(0, n_seq);
    const std::vector<int> pattern = {1, 1, big, 1, big, big, 1, 1, 1, big, big, 1};
    std::map<std::string, std::vector<double>> t;
    for (int r = 0; r < 12; ++r)
      for (Streams* p : {&with, &without}) {
        int prev = 0;
        for (int each : pattern) {
          const double d = p->decode(each);
          if (r > 1 && prev)
            t[std::string(p == &with ? "cache 8" : "cache 0") + "  " + std::to_string(each) +
              " after " + std::to_string(prev)]
                .push_back(d);
          prev = each;
        }
      }
    std::printf("%d sequence(s) x 256 cached tokens, tokens per sequence:\n", n_seq);
    for (const auto& [k, v] : t) std::printf("  %-22s %6.2f ms (%zu)\n", k.c_str(), med(v), v.size());
    if (with.sink == -7 || without.sink == -7) return 1;
  }
}
