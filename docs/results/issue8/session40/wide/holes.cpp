// One-token and 5-token decode time with 300 cells in use, compact against spread over 300+H cells.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>
#include "reader/model.h"
using namespace reader;
using Clock = std::chrono::steady_clock;
int main(int argc, char** argv) {
  ModelOptions o; o.path = argv[1]; o.n_ctx = 4096; o.n_threads = 2;
  auto m = Model::load(o);
  const int L = atoi(argv[2]);
  int s0[1] = {0};
  auto med = [](std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; };
  for (int H : {0, L / 10, L / 4, L / 2}) {
    m->kv_clear();
    std::vector<BatchToken> pre;
    for (int i = 0; i < L + H; ++i) pre.push_back({Token(100 + i % 1000), i, s0, i == L + H - 1});
    for (int p = 0; p < L + H; p += 256) m->decode(std::span(pre).subspan(p, std::min(256, L + H - p)));
    // holes: every other cell in the middle region
    int removed = 0;
    for (int p = 10; removed < H; p += 2, ++removed) m->kv_seq_rm(0, p, p + 1);
    std::vector<double> t1, t5;
    for (int r = 0; r < 30; ++r) {
      std::vector<BatchToken> b{{Token(7), L + H, s0, true}};
      auto a = Clock::now(); m->decode(b); t1.push_back(std::chrono::duration<double, std::milli>(Clock::now() - a).count());
      m->kv_seq_rm(0, L + H, -1);
      std::vector<BatchToken> c;
      for (int i = 0; i < 5; ++i) c.push_back({Token(7 + i), L + H + i, s0, true});
      a = Clock::now(); m->decode(c); t5.push_back(std::chrono::duration<double, std::milli>(Clock::now() - a).count());
      m->kv_seq_rm(0, L + H, -1);
    }
    std::printf("cells in use %d, holes %d: one %.2f ms, five %.2f ms\n", L, H, med(t1), med(t5));
  }
}
