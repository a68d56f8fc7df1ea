// After a burst of zmm VNNI / ymm VNNI / scalar work, time fixed scalar chunks: a frequency
// license would show as slower chunks right after the zmm burst.
#include <immintrin.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
using Clock = std::chrono::steady_clock;
__attribute__((noinline)) long scalar_chunk(long n) { long x = 1; for (long i = 0; i < n; ++i) x = x * 3 + (x >> 7); return x; }
__attribute__((target("avx512f,avx512bw,avx512vnni"), noinline)) int zmm_burst(double ms) {
  __m512i a = _mm512_set1_epi8(3), b = _mm512_set1_epi8(5), acc[8];
  for (auto& x : acc) x = _mm512_setzero_si512();
  auto t0 = Clock::now();
  while (std::chrono::duration<double, std::milli>(Clock::now() - t0).count() < ms)
    for (int i = 0; i < 1000; ++i) for (auto& x : acc) x = _mm512_dpbusd_epi32(x, a, b);
  int s = 0; for (auto& x : acc) s += _mm512_reduce_add_epi32(x); return s;
}
__attribute__((target("avx2,avxvnni"), noinline)) int ymm_burst(double ms) {
  __m256i a = _mm256_set1_epi8(3), b = _mm256_set1_epi8(5), acc[8];
  for (auto& x : acc) x = _mm256_setzero_si256();
  auto t0 = Clock::now();
  while (std::chrono::duration<double, std::milli>(Clock::now() - t0).count() < ms)
    for (int i = 0; i < 1000; ++i) for (auto& x : acc) x = _mm256_dpbusd_avx_epi32(x, a, b);
  int s = 0; for (auto& x : acc) { alignas(32) int v[8]; _mm256_store_si256((__m256i*)v, x); for (int k : v) s += k; } return s;
}
int main() {
  const long n = 20000;  // ~ tens of microseconds
  const int chunks = 40;
  std::vector<std::vector<double>> res[3];
  for (auto& r : res) r.assign(chunks, {});
  volatile long sink = 0; volatile int s2 = 0;
  for (int rep = 0; rep < 60; ++rep) for (int kind = 0; kind < 3; ++kind) {
    if (kind == 0) s2 = s2 + zmm_burst(5); else if (kind == 1) s2 = s2 + ymm_burst(5); else sink = sink + scalar_chunk(2000000);
    for (int c = 0; c < chunks; ++c) { auto a = Clock::now(); sink = sink + scalar_chunk(n); res[kind][c].push_back(std::chrono::duration<double, std::micro>(Clock::now() - a).count()); }
  }
  const char* names[3] = {"after zmm", "after ymm", "after scalar"};
  for (int kind = 0; kind < 3; ++kind) {
    printf("%-13s", names[kind]);
    double t = 0;
    for (int c = 0; c < chunks; ++c) { auto v = res[kind][c]; std::sort(v.begin(), v.end()); t += v[v.size()/2]; if (c % 4 == 0) printf(" %6.1f", v[v.size()/2]); }
    printf("  (us per chunk, every 4th; total %.0f us)\n", t);
  }
}
