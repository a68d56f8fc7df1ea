// Time of one decode of 5 tokens as a chain against the same 5 tokens as a 2-branch tree
// (root shared by both branch sequences, the prefix copied to the second), at 300 cached tokens.
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
  const int L = argc > 2 ? atoi(argv[2]) : 300;
  int s0[1] = {0}, s1[1] = {1}, s01[2] = {0, 1};
  std::vector<BatchToken> pre;
  for (int i = 0; i < L; ++i) pre.push_back({Token(100 + i % 1000), i, s0, i == L - 1});
  for (int p = 0; p < L; p += 256) m->decode(std::span(pre).subspan(p, std::min(256, L - p)));
  std::vector<double> tc, tt, t1;
  for (int r = 0; r < 40; ++r) {
    {  // one token
      std::vector<BatchToken> b{{Token(7), L, s0, true}};
      auto a = Clock::now(); m->decode(b); t1.push_back(std::chrono::duration<double, std::milli>(Clock::now() - a).count());
      m->kv_seq_rm(0, L, -1);
    }
    {  // chain of 5
      std::vector<BatchToken> b;
      for (int i = 0; i < 5; ++i) b.push_back({Token(7 + i), L + i, s0, true});
      auto a = Clock::now(); m->decode(b); tc.push_back(std::chrono::duration<double, std::milli>(Clock::now() - a).count());
      m->kv_seq_rm(0, L, -1);
    }
    {  // tree: root + 2 branches of 2
      m->kv_seq_cp(0, 1, 0, L);
      std::vector<BatchToken> b{{Token(7), L, s01, true}, {Token(8), L + 1, s0, true}, {Token(9), L + 2, s0, true},
                                {Token(10), L + 1, s1, true}, {Token(11), L + 2, s1, true}};
      auto a = Clock::now(); m->decode(b); tt.push_back(std::chrono::duration<double, std::milli>(Clock::now() - a).count());
      m->kv_seq_rm(1, -1, -1);
      m->kv_seq_rm(0, L, -1);
    }
  }
  auto med = [](std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; };
  std::printf("L=%d one %.2f ms, chain5 %.2f ms (%.2fx), tree5 %.2f ms (%.2fx)\n", L, med(t1), med(tc), med(tc) / med(t1), med(tt), med(tt) / med(t1));
}
