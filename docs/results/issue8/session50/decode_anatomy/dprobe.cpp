// dprobe MODEL N ITERS [REPACK=1]: ITERS timed decodes of N tokens (all logits, the pick on each
// row) on PREFILL (default 512) cached tokens, THREADS (default 2) threads; prints the median,
// p10 and p90 in ms.
#include <cstdio>

#include "../probe.h"

int main(int argc, char** argv) {
  const int n = std::atoi(argv[2]), iters = std::atoi(argv[3]);
  Probe probe(argv[1], env_int("PREFILL", 512), env_int("THREADS", 2), argc > 4 ? std::atoi(argv[4]) : 1, -1);
  std::vector<double> ts;
  for (int it = 0; it < iters; ++it) {
    probe.fill(n, probe.prefill, 200, 91, true, it);
    ts.push_back(probe.timed(n));
  }
  std::printf("n=%d median %.3f ms p10 %.3f p90 %.3f\n", n, sorted_at(ts, 1, 2), sorted_at(ts, 1, 10),
              sorted_at(ts, 9, 10));
}
