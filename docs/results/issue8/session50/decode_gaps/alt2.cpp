// alt2 MODEL ITERS: one-token decodes timed after different preceding events, in turn: 0 right
// after a one-token decode, 1 after 1 ms of main-thread work, 2 after 7 ms of it, 3 after an
// 8-token decode, 4 after 7 ms asleep (512 cached tokens, 8 graphs kept ready).
#include <cstdio>

#include "../probe.h"

int main(int /*argc*/, char** argv) {
  const int iters = std::atoi(argv[2]);
  Probe probe(argv[1], 512, 2, true, 8);
  const auto decode = [&](int n, int salt) {
    probe.fill(n, probe.prefill, 200, 91, true, salt);
    return probe.timed(1);
  };
  std::vector<double> t[5];
  for (int it = 0; it < iters; ++it) {
    const int mode = it % 5;
    if (mode == 0) decode(1, it);
    if (mode == 1 || mode == 2) pause_ms(mode == 1 ? 1.0 : 7.0, true);
    if (mode == 3) decode(8, it);
    if (mode == 4) pause_ms(7.0, false);
    t[mode].push_back(decode(1, it + 7));
  }
  const char* names[5] = {"after 1-token decode", "after 1 ms work", "after 7 ms work",
                          "after 8-token decode", "after 7 ms asleep"};
  for (int k = 0; k < 5; ++k)
    std::printf("%-22s median %.3f ms p10 %.3f\n", names[k], sorted_at(t[k], 1, 2), sorted_at(t[k], 1, 10));
}
