// Does the graph cache (ModelOptions::graph_cache, scripts/patches/llama.cpp-graph-cache.patch)
// pay with one KV stream per sequence? Two models in one process, the same 8 streams x 256
// cached tokens each (session 32's streams.h), one keeping 8 graphs and one none; decodes of 1
// and 2 tokens per sequence in a fixed pattern (1,1,2,1,2,2,...), alternating between the two
// models each round. Prints the median ms by (graph cache, shape, shape before). Also one
// stream (a unified cache, 1 sequence) with 1 and 4 tokens. Build as session32/probe/HOWTO.md
// says, with -Idocs/results/issue8/session32/batch.
#include <cstdio>
#include <map>
#include <string>

#include "streams.h"

int main() {
  for (const int n_seq : {8, 1}) {
    const int big = n_seq == 1 ? 4 : 2;
    Streams with(n_seq, 8), without(n_seq, 0);
    const std::vector<int> pattern = {1, 1, big, 1, big, big, 1, 1, 1, big, big, 1};
    std::map<std::string, std::vector<double>> t;
    for (int r = 0; r < 12; ++r)
      for (Streams* p : {&with, &without}) {
        int prev = 0;
        for (int each : pattern) {
          const double d = p->decode(std::vector<int>(static_cast<size_t>(n_seq), each));
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
