// Times Model::kv_compact at several cell counts (SmolLM2 Q8_0).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>
#include "reader/model.h"
using namespace reader;
int main(int argc, char** argv) {
  ModelOptions o; o.path = argv[1]; o.n_ctx = 4096; o.n_threads = 2;
  auto m = Model::load(o);
  for (int cells : {512, 1024, 2048, 4000}) {
    m->kv_clear();
    int seq0[1] = {0};
    for (int p = 0; p < cells; p += 256) {
      std::vector<BatchToken> b;
      for (int i = p; i < std::min(cells, p + 256); ++i) b.push_back({Token(100 + i % 1000), i, seq0, false});
      b.back().want_logits = true;
      m->decode(b);
    }
    std::vector<double> ms;
    for (int r = 0; r < 5; ++r) {
      auto a = std::chrono::steady_clock::now();
      bool ok = m->kv_compact(0);
      auto z = std::chrono::steady_clock::now();
      ms.push_back(std::chrono::duration<double, std::milli>(z - a).count());
      if (!ok) std::printf("refused\n");
    }
    std::sort(ms.begin(), ms.end());
    // one-token decode for scale
    std::vector<BatchToken> b{{Token(5), cells, seq0, true}};
    auto a = std::chrono::steady_clock::now(); m->decode(b); auto z = std::chrono::steady_clock::now();
    std::printf("cells %d compact median %.2f ms (min %.2f) fits %d; one decode %.2f ms\n", cells, ms[2], ms[0],
                (int)m->kv_compact_fits(0, size_t{1} << 30), std::chrono::duration<double, std::milli>(z - a).count());
  }
}
