// after MODEL CTX ROUNDS: in one process, rounds of six disturbances in rotated order (none,
// a 4-, 8- or 16-token decode, 10 ms of scalar spinning, 10 ms asleep), each followed by ten
// one-token decodes. Prints each slot's median ms and the summed excess over "none", in
// one-token decodes: what a disturbance costs the decodes after it.
#include "../../session24/probes/probe.h"
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
int main(int argc, char** argv) {
  const char* path = argv[1]; int ctx = atoi(argv[2]); int rounds = atoi(argv[3]);
  const char* names[] = {"none", "decode4", "decode8", "decode16", "spin10ms", "sleep10ms"};
  const int K = 6, S = 10;
  llama_model* m = probe_model(path);
  llama_context* c = probe_context(m);
  llama_batch b = llama_batch_init(512, 0, 1);
  prefill(c, b, ctx);
  int pos = ctx; volatile long sink = 0;
  std::vector<std::vector<std::vector<double>>> t(K, std::vector<std::vector<double>>(S));
  for (int r = 0; r < rounds; ++r) for (int q = 0; q < K; ++q) {
    const int kind = (q + r) % K;
    if (kind >= 1 && kind <= 3) {
      const int k = 2 << kind; b.n_tokens = k;
      for (int i = 0; i < k; ++i) put(b, i, 500 + (pos + i) % 9000, pos + i);
      llama_decode(c, b); llama_get_logits_ith(c, k - 1);
      llama_memory_seq_rm(llama_get_memory(c), 0, pos, -1);
    } else if (kind == 4) {
      auto t0 = Clock::now(); long z = 1;
      while (std::chrono::duration<double, std::milli>(Clock::now() - t0).count() < 10) for (int i = 0; i < 1000; ++i) z = z * 3 + i;
      sink = sink + z;
    } else if (kind == 5) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    for (int j = 0; j < S; ++j) {
      b.n_tokens = 1; put(b, 0, 500 + pos % 9000, pos);
      auto a = Clock::now(); llama_decode(c, b); llama_get_logits_ith(c, 0);
      t[kind][j].push_back(std::chrono::duration<double, std::milli>(Clock::now() - a).count());
      llama_memory_seq_rm(llama_get_memory(c), 0, pos, -1);
    }
  }
  std::vector<double> base(S); double b0 = 0;
  for (int j = 0; j < S; ++j) { base[j] = median(t[0][j]); b0 += base[j] / S; }
  for (int q = 0; q < K; ++q) {
    double ex = 0; printf("%-10s", names[q]);
    for (int j = 0; j < S; ++j) { const double v = median(t[q][j]); ex += (v - base[j]) / b0; printf(" %6.3f", v); }
    printf("   excess %.2f one-token decodes\n", ex);
  }
}
