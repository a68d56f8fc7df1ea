// Session 53 probe: an n-token chain decoded REPS times after CTX cached tokens, against the
// project's library. Build from the repository root (build/ first):
//   V=$PWD/.venv/lib/python3.11/site-packages
//   g++ -std=c++20 -O2 -Iinclude -Isrc -I$V/include docs/results/issue8/session53/analysis/fixn.cpp \
//     build/libreader.a build/libreader_retrieval.a -L$V/lib -lllama -lggml -lggml-base -lfmt \
//     -ldivsufsort -lxxhash -Wl,-rpath,$V/lib -o /tmp/fixn && /tmp/fixn 8 300
// Decodes an n-token chain after `ctx` cached tokens, `reps` times (KV removed after each);
// prints the median ms. For perf: compare where the time of n = 8 goes against n = 1.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <vector>
#include "reader/model.h"
#include "reader/sampling.h"
#include "verify/prefill.h"
using namespace reader;
using Clock = std::chrono::steady_clock;
int main(int argc, char** argv) {
  int n = atoi(argv[1]), reps = atoi(argv[2]), ctx = argc > 3 ? atoi(argv[3]) : 300;
  ModelOptions o; o.n_threads = 2; o.path = default_model_path();
  auto m = Model::load(o);
  Tokens toks = probe_tokens(*m, 1200);
  prefill(*m, TokenSpan(toks).first(ctx), 0);
  int s0[] = {0};
  std::vector<double> t; Token sink = 0;
  for (int r = 0; r < reps; ++r) {
    auto b = chain_batch(toks, ctx, n, s0);
    auto a = Clock::now();
    m->decode(b);
    for (int i = 0; i < n; ++i) sink ^= argmax(m->logits(i), m->n_vocab());
    t.push_back(std::chrono::duration<double, std::milli>(Clock::now() - a).count());
    m->kv_seq_rm(0, ctx, -1);
  }
  std::sort(t.begin(), t.end());
  printf("n=%d ctx=%d median %.2f ms (p10 %.2f) sink %d\n", n, ctx, t[t.size() / 2], t[t.size() / 10], sink);
}
