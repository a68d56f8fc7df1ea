// Single-thread timing of the shipped per-block column step (reader-q8-avx512.h) over repacked tiles.
#include <immintrin.h>
#include <x86intrin.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>
struct block_q8_0 { uint16_t d; int8_t qs[32]; };
#include "reader-q8-avx512.h"
constexpr int64_t kTileBytes = 544;
template <int RN>
__attribute__((noinline)) void run(const uint8_t* A, int64_t tiles, int64_t k, const block_q8_0* B, const int32_t* corr, const float* db, float* out, int pf) {
  for (int64_t t = 0; t < tiles; ++t) {
    const uint8_t* a = A + t * k * kTileBytes;
    __m512 acc[RN];
    for (int j = 0; j < RN; ++j) acc[j] = _mm512_setzero_ps();
    for (int64_t l = 0; l < k; ++l) {
      const uint8_t* blk = a + l * kTileBytes;
      if (pf) for (int c = 0; c < 9; ++c) _mm_prefetch((const char*)(blk + 4 * kTileBytes + 64 * c), _MM_HINT_T0);
      const __m512 da = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i*)blk));
      __m512i w[8];
      for (int q = 0; q < 8; ++q) w[q] = _mm512_loadu_si512((const void*)(blk + 32 + 64 * q));
      reader_q8_0_block_columns<RN>(w, da, B, k, corr, db, k, l, acc);
    }
    for (int j = 0; j < RN; ++j) _mm512_storeu_ps(out + (j * tiles + t) * 16, acc[j]);
  }
}
int main(int argc, char** argv) {
  const int64_t m = atoll(argv[1]), k = atoll(argv[2]) / 32; const int n = atoi(argv[3]); const int reps = atoi(argv[4]); const int pf = argc > 5 ? atoi(argv[5]) : 1;
  std::mt19937 rng(1);
  std::vector<uint8_t> A(m / 16 * k * kTileBytes + 8 * kTileBytes); for (auto& x : A) x = rng();
  for (int64_t i = 0; i < m / 16 * k; ++i) { uint16_t h = _cvtss_sh(0.01f, 0); memcpy(&A[i * kTileBytes], &h, 2); for (int r=1;r<16;++r) memcpy(&A[i*kTileBytes+2*r], &h, 2); }
  std::vector<block_q8_0> B(n * k); for (auto& b : B) { b.d = _cvtss_sh(0.02f, 0); for (auto& q : b.qs) q = rng(); }
  std::vector<int32_t> corr(n * k, -1000); std::vector<float> db(n * k, 0.02f); std::vector<float> out(16 * n * m);
  std::vector<double> ts;
  for (int r = 0; r < reps; ++r) {
    const unsigned long long t0 = __rdtsc();
    switch (n) {
      case 1: run<1>(A.data(), m/16, k, B.data(), corr.data(), db.data(), out.data(), pf); break;
      case 2: run<2>(A.data(), m/16, k, B.data(), corr.data(), db.data(), out.data(), pf); break;
      case 3: run<3>(A.data(), m/16, k, B.data(), corr.data(), db.data(), out.data(), pf); break;
      case 4: run<4>(A.data(), m/16, k, B.data(), corr.data(), db.data(), out.data(), pf); break;
      case 5: run<5>(A.data(), m/16, k, B.data(), corr.data(), db.data(), out.data(), pf); break;
      case 6: run<6>(A.data(), m/16, k, B.data(), corr.data(), db.data(), out.data(), pf); break;
      case 7: run<7>(A.data(), m/16, k, B.data(), corr.data(), db.data(), out.data(), pf); break;
      case 8: run<8>(A.data(), m/16, k, B.data(), corr.data(), db.data(), out.data(), pf); break;
      case 9: run<9>(A.data(), m/16, k, B.data(), corr.data(), db.data(), out.data(), pf); break;
      case 10: run<10>(A.data(), m/16, k, B.data(), corr.data(), db.data(), out.data(), pf); break;
      case 11: run<11>(A.data(), m/16, k, B.data(), corr.data(), db.data(), out.data(), pf); break;
      case 12: run<12>(A.data(), m/16, k, B.data(), corr.data(), db.data(), out.data(), pf); break;
      case 13: run<13>(A.data(), m/16, k, B.data(), corr.data(), db.data(), out.data(), pf); break;
      case 14: run<14>(A.data(), m/16, k, B.data(), corr.data(), db.data(), out.data(), pf); break;
      case 15: run<15>(A.data(), m/16, k, B.data(), corr.data(), db.data(), out.data(), pf); break;
      case 16: run<16>(A.data(), m/16, k, B.data(), corr.data(), db.data(), out.data(), pf); break;
      default: break; }
    ts.push_back(double(__rdtsc() - t0) / (m / 16 * k));
  }
  std::sort(ts.begin(), ts.end());
  printf("m=%ld k=%ld n=%d pf=%d: %.1f TSC cycles per tile-block (p10 %.1f), %.2f per block-column\n", m, k*32, n, pf, ts[reps/2], ts[reps/10], ts[reps/2]/n);
}
