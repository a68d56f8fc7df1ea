// dist MODEL CTX ROUNDS KIND AMOUNT: rounds of 6 one-token decodes preceded by a disturbance
// (KIND: none | decode N tokens | read MB sequentially | rread MB reversed); prints each slot's median ms.
#include "../../session24/probes/probe.h"
#include <cstdio>
#include <cstdlib>
#include <string>
#include <cstring>
#include <immintrin.h>
#include <thread>
#include <atomic>
int main(int argc, char** argv) {
  const char* path = argv[1]; int ctx = atoi(argv[2]); int rounds = atoi(argv[3]);
  std::string kind = argv[4]; double amount = atof(argv[5]);
  size_t nb = (kind == "read" || kind == "rread") ? (size_t)(amount * 1048576) : kind == "l3spin" ? (size_t)(atof(argv[6]) * 1048576) : 64;
  std::vector<long> buf(nb / sizeof(long), 1);
  llama_model* m = probe_model(path);
  llama_context* c = probe_context(m);
  llama_batch b = llama_batch_init(512, 0, 1);
  prefill(c, b, ctx);
  int pos = ctx; volatile long sink = 0; const int S = 6;
  std::vector<std::vector<double>> t(S);
  std::vector<double> td;
  for (int r = 0; r < rounds; ++r) {
    auto a0 = Clock::now();
    if (kind == "decode" || kind == "decodeL") {
      int k = (int)amount; b.n_tokens = k; for (int i = 0; i < k; ++i) put(b, i, 500 + (pos + i) % 9000, pos + i);
      if (kind == "decodeL") for (int i = 0; i < k - 1; ++i) b.logits[i] = 0;
      llama_decode(c, b); llama_get_logits_ith(c, k - 1);
      llama_memory_seq_rm(llama_get_memory(c), 0, pos, -1);
    } else if (kind == "spin" || kind == "vnni" || kind == "spin2" || kind == "vnni2") {
      auto work = [&](bool vn) {
        auto t0 = Clock::now();
        __m512i acc[8]; for (int q = 0; q < 8; ++q) acc[q] = _mm512_set1_epi32(q);
        __m512i x = _mm512_set1_epi8(3), y = _mm512_set1_epi8(5); long z = 1;
        while (std::chrono::duration<double, std::milli>(Clock::now() - t0).count() < amount) {
          for (int it = 0; it < 1000; ++it) {
            if (vn) { for (int q = 0; q < 8; ++q) acc[q] = _mm512_dpbusd_epi32(acc[q], x, y); }
            else { z = z * 3 + it; }
          }
        }
        int r[16]; __m512i a = acc[0]; for (int q = 1; q < 8; ++q) a = _mm512_add_epi32(a, acc[q]); _mm512_storeu_si512(r, a); sink = sink + r[0] + z;
      };
      bool vn = kind[0] == 'v';
      if (kind.back() == '2') { std::thread th(work, vn); work(vn); th.join(); } else work(vn);
    } else if (kind == "l3spin") {
      auto t0 = Clock::now(); long s = 0;
      while (std::chrono::duration<double, std::milli>(Clock::now() - t0).count() < amount) for (size_t i = 0; i < buf.size(); i += 8) s += buf[i];
      sink = sink + s;
    } else if (kind == "sleep") { std::this_thread::sleep_for(std::chrono::microseconds((long)(amount * 1000)));
    } else if (kind == "read") { long s = 0; for (size_t i = 0; i < buf.size(); i += 8) s += buf[i]; sink = sink + s; }
    else if (kind == "rread") { long s = 0; for (size_t i = buf.size(); i >= 8; i -= 8) s += buf[i - 8]; sink = sink + s; }
    td.push_back(std::chrono::duration<double, std::milli>(Clock::now() - a0).count());
    for (int j = 0; j < S; ++j) {
      b.n_tokens = 1; put(b, 0, 500 + pos % 9000, pos);
      auto a = Clock::now(); llama_decode(c, b); llama_get_logits_ith(c, 0);
      t[j].push_back(std::chrono::duration<double, std::milli>(Clock::now() - a).count());
      llama_memory_seq_rm(llama_get_memory(c), 0, pos, -1);
    }
  }
  printf("%s %g (dist %.2f ms):", kind.c_str(), amount, median(td));
  for (int j = 0; j < S; ++j) printf(" %.3f", median(t[j]));
  printf("  first/last %.3f\n", median(t[0]) / median(t[S - 1]));
}
