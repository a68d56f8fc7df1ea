#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <vector>
#include "reader/model.h"
#include "verify/prefill.h"
using namespace reader;
using Clock = std::chrono::steady_clock;
int main(int argc, char** argv) {
  ModelOptions o; o.path = argv[1]; o.n_ctx = 2048; o.n_threads = 2;
  auto a = Model::load(o);
  setenv("LLAMA_GRAPH_REUSE_DISABLE", "1", 1);
  auto b = Model::load(o);
  Tokens toks; for (int i = 0; i < 1024; ++i) toks.push_back(100 + (i * 7919) % 20000);
  const int seq0[] = {0};
  const int ctx = 256;
  for (auto* m : {a.get(), b.get()}) { m->kv_clear(); prefill(*m, TokenSpan(toks).first(ctx), 0); }
  auto dec = [&](Model* m, int n) {
    auto bt = chain_batch(toks, ctx, n, seq0);
    auto t0 = Clock::now(); m->decode(bt); auto t1 = Clock::now();
    m->kv_seq_rm(0, ctx, -1);
    return std::chrono::duration<double, std::milli>(t1 - t0).count();
  };
  for (int rep = 0; rep < 3; ++rep)
  for (int n : {1, 2, 4}) {
    std::vector<double> sa, da, sb, db;
    for (int r = 0; r < 40; ++r) {
      dec(a.get(), n); sa.push_back(dec(a.get(), n)); dec(a.get(), n == 1 ? 2 : 1); da.push_back(dec(a.get(), n));
      dec(b.get(), n); sb.push_back(dec(b.get(), n)); dec(b.get(), n == 1 ? 2 : 1); db.push_back(dec(b.get(), n));
    }
    for (auto* v : {&sa, &da, &sb, &db}) std::sort(v->begin(), v->end());
    std::printf("n=%d reuse-on: same %.3f other %.3f | reuse-off: same %.3f other %.3f\n", n, sa[20], da[20], sb[20], db[20]);
  }
}
