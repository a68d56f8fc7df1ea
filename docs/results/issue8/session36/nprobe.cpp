// Repeated decodes of n tokens (1 sequence, 256 cached): time per decode, for perf.
#include "streams.h"
#include <cstdio>
#include <cstdlib>
int main(int argc, char** argv) {
  int n = atoi(argv[1]), iters = atoi(argv[2]);
  Streams s(1);
  for (int i = 0; i < 20; ++i) s.decode({n});
  std::vector<double> t;
  for (int i = 0; i < iters; ++i) t.push_back(s.decode({n}));
  printf("n=%d median %.3f ms\n", n, med(t));
}
