// Repacked Q8_0 tile (544 B per 16 rows x block: 16 fp16 scales, 8 x 64 B) as shipped, with
// column variants: V=0 shipped (vpbroadcastd + vpdpbusd), V=1 embedded broadcast {1to16} (asm).
// Session 53: g++ -O3 -march=native -std=c++20 mb2.cpp -o mb2 -lpthread && ./mb2 (medians of 21
// passes over all of SmolLM2-135M's matrices, two threads; "equal": outputs bytewise the same).
#include <immintrin.h>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <thread>
#include <vector>
struct blk { uint16_t d; int8_t qs[32]; };
struct Mat { int64_t m, k; std::vector<uint8_t> T; };
constexpr int64_t kTile = 544;
template <int V>
static inline __m512i dp(__m512i s, __m512i w, const int8_t* p) {
  if constexpr (V == 0) { int32_t b; memcpy(&b, p, 4); return _mm512_dpbusd_epi32(s, w, _mm512_set1_epi32(b)); }
  else { asm("vpdpbusd %2%{1to16%}, %1, %0" : "+v"(s) : "v"(w), "m"(*(const int32_t*)p)); return s; }
}
template <int V, int RN>
static inline void columns(const __m512i* w, __m512 da, const blk* B, int64_t k, const int32_t* corr, const float* db, int64_t l, __m512* acc) {
#pragma GCC unroll 16
  for (int j = 0; j < RN; ++j) {
    const int8_t* bq = B[k * j + l].qs;
    __m512i s0 = _mm512_set1_epi32(corr[j * k + l]), s1 = _mm512_setzero_si512();
#pragma GCC unroll 4
    for (int q = 0; q < 8; q += 2) { s0 = dp<V>(s0, w[q], bq + 4 * q); s1 = dp<V>(s1, w[q + 1], bq + 4 * q + 4); }
    const __m512 scale = _mm512_mul_ps(da, _mm512_set1_ps(db[j * k + l]));
    acc[j] = _mm512_fmadd_ps(scale, _mm512_cvtepi32_ps(_mm512_add_epi32(s0, s1)), acc[j]);
  }
}
template <int V, int RN>
static void tile(const uint8_t* a, int64_t k, int64_t ii, const blk* B, const int32_t* corr, const float* db, float* C, int64_t ldc) {
  __m512 acc[RN];
  for (int j = 0; j < RN; ++j) acc[j] = _mm512_setzero_ps();
  for (int64_t l = 0; l < k; ++l) {
    const uint8_t* blkp = a + l * kTile;
#pragma GCC unroll 9
    for (int c = 0; c < 9; ++c) _mm_prefetch((const char*)(blkp + 12 * kTile + 64 * c), _MM_HINT_T0);
    const __m512 da = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i*)blkp));
    __m512i w[8];
#pragma GCC unroll 8
    for (int q = 0; q < 8; ++q) w[q] = _mm512_loadu_si512((const void*)(blkp + 32 + 64 * q));
    columns<V, RN>(w, da, B, k, corr, db, l, acc);
  }
  for (int j = 0; j < RN; ++j) _mm512_storeu_ps(C + ldc * j + ii, acc[j]);
}
int main() {
  std::mt19937 rng(1);
  std::vector<Mat> mats;
  auto add = [&](int64_t m, int64_t kin) { Mat M; M.m = m; M.k = kin / 32; M.T.resize(m / 16 * M.k * kTile); for (auto& b : M.T) b = rng(); mats.push_back(std::move(M)); };
  for (int L = 0; L < 30; ++L) { add(576, 576); add(192, 576); add(192, 576); add(576, 576); add(1536, 576); add(1536, 576); add(576, 1536); }
  add(49152, 576);
  for (int n : {1, 2, 4, 8}) {
    std::vector<std::vector<blk>> Bs; std::vector<std::vector<int32_t>> Cs; std::vector<std::vector<float>> Ds;
    for (auto& M : mats) { std::vector<blk> B(n * M.k); for (auto& b : B) { b.d = 0x3c00; for (auto& q : b.qs) q = rng(); } Bs.push_back(B); Cs.emplace_back(n * M.k, 5); Ds.emplace_back(n * M.k, 1.f); }
    std::vector<double> t[2]; std::vector<float> out[2];
    for (int rep = 0; rep < 21; ++rep) for (int v = 0; v < 2; ++v) {
      std::vector<float> C0(49152 * 16), C1(49152 * 16);
      auto body = [&](int th, std::vector<float>& C) {
        for (size_t mi = 0; mi < mats.size(); ++mi) {
          auto& M = mats[mi]; int64_t tiles = M.m / 16;
          for (int64_t tt = th * tiles / 2; tt < (th + 1) * tiles / 2; ++tt) {
            const uint8_t* a = M.T.data() + tt * M.k * kTile;
#define RUN(N) case N: if (v) tile<1, N>(a, M.k, tt * 16, Bs[mi].data(), Cs[mi].data(), Ds[mi].data(), C.data(), M.m); else tile<0, N>(a, M.k, tt * 16, Bs[mi].data(), Cs[mi].data(), Ds[mi].data(), C.data(), M.m); break;
            switch (n) { RUN(1) RUN(2) RUN(4) RUN(8) }
          }
        }
      };
      auto t0 = std::chrono::steady_clock::now();
      std::thread th1(body, 1, std::ref(C1)); body(0, C0); th1.join();
      t[v].push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      if (rep == 0) out[v] = C0;
    }
    for (int v = 0; v < 2; ++v) std::sort(t[v].begin(), t[v].end());
    printf("n=%d  shipped %.2f (best %.2f)  embedded-bcast %.2f (best %.2f) ms  ratio %.3f  equal %d\n", n, t[0][10], t[0][0], t[1][10], t[1][0], t[0][10] / t[1][10], !memcmp(out[0].data(), out[1].data(), out[0].size() * sizeof(float)));
  }
}
