// alt MODEL BIG ITERS: one-token decodes timed right after a decode of BIG tokens (BIG = 1: back
// to back), on 512 cached tokens; GC=n keeps n graphs ready (llama_set_graph_cache), PAUSE_MS
// waits that long before each timed decode, asleep or (SPIN set) busy on the main thread.
#include <cstdio>

#include "../probe.h"

int main(int /*argc*/, char** argv) {
  const int big = std::atoi(argv[2]), iters = std::atoi(argv[3]);
  Probe probe(argv[1], 512, 2, true, env_int("GC", -1));
  std::vector<double> one, bigt;
  for (int it = 0; it < iters; ++it) {
    probe.fill(big, probe.prefill, 200, 91, true, it);
    bigt.push_back(probe.timed(0));
    if (const char* pause = std::getenv("PAUSE_MS")) pause_ms(std::atof(pause), std::getenv("SPIN") != nullptr);
    probe.fill(1, probe.prefill, 300, 0, true, it);
    one.push_back(probe.timed(1));
  }
  std::printf("after %2d-token decodes (%.2f ms): one-token decode median %.3f ms p10 %.3f\n", big,
              sorted_at(bigt, 1, 2), sorted_at(one, 1, 2), sorted_at(one, 1, 10));
}
