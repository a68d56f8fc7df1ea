// Standalone harness (session 21): the shipped Q8_0 kernel (struct Old, copied from scripts/patches) against a candidate (struct New, from KERNEL): exactness against a scalar reference and independence of the batch size, then one/two-thread timings of a SmolLM2-like layer set (30 layers, no output matrix), old and new alternated, min of 25 rounds.
#include <immintrin.h>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cmath>
#include <vector>
#include <random>
#include <chrono>
#include <algorithm>
#include <thread>
typedef uint16_t ggml_half;
struct block_q8_0 { ggml_half d; int8_t qs[32]; };
static_assert(sizeof(block_q8_0) == 34);
static inline float unhalf(ggml_half h) { return _cvtsh_ss(h); }
static inline __m256i load(const block_q8_0 *b) { return _mm256_loadu_si256((const __m256i *)b->qs); }
static inline float hsum(__m128 x) {
  x = _mm_add_ps(x, _mm_movehl_ps(x, x)); x = _mm_add_ss(x, _mm_movehdup_ps(x)); return _mm_cvtss_f32(x);
}
static inline float hsum(__m256 x) {
  return hsum(_mm_add_ps(_mm256_extractf128_ps(x, 1), _mm256_castps256_ps128(x)));
}

struct Old {
  const block_q8_0 *A, *B; float *C; int64_t k, lda, ldb, ldc; int ith, nth;
  void gemm(int64_t m, int64_t n) {
    const int64_t ytiles = m / 4, xfull = n / 4, xtiles = xfull + (n % 4 != 0);
    const int64_t tiles = xtiles * ytiles, duty = (tiles + nth - 1) / nth;
    const int64_t start = duty * ith, end = std::min(start + duty, tiles);
    for (int64_t job = start; job < end; ++job) {
      const int64_t ii = job / xtiles * 4, x = job % xtiles, jj = x * 4;
      const bool prefetch = x == 0;
      switch (x < xfull ? 4 : n % 4) {
        case 4: tile<4>(ii, jj, prefetch); break;
        case 3: tile<3>(ii, jj, prefetch); break;
        case 2: tile<2>(ii, jj, prefetch); break;
        default: tile<1>(ii, jj, prefetch); break;
      }
    }
  }
  template <int RN> inline void tile(int64_t ii, int64_t jj, bool prefetch) {
    const __m512i flip = _mm512_set1_epi8((char)0x80);
    const __m512i rows01 = _mm512_set_epi32(1,1,1,1,1,1,1,1,0,0,0,0,0,0,0,0);
    const __m512i rows23 = _mm512_set_epi32(3,3,3,3,3,3,3,3,2,2,2,2,2,2,2,2);
    __m512 Cv[RN][2] = {};
    for (int64_t l = 0; l < k; ++l) {
      const block_q8_0 *a0 = A + lda*(ii+0) + l, *a1 = A + lda*(ii+1) + l, *a2 = A + lda*(ii+2) + l, *a3 = A + lda*(ii+3) + l;
      if (prefetch) {
        const char *next = (const char *)(A + lda*(ii+4)) + l*4*(int64_t)sizeof(block_q8_0);
        _mm_prefetch(next, _MM_HINT_T0); _mm_prefetch(next+64, _MM_HINT_T0); _mm_prefetch(next+128, _MM_HINT_T0);
      }
      uint64_t a_delta = ((uint64_t)a3->d << 48) | ((uint64_t)a2->d << 32) | ((uint64_t)a1->d << 16) | (a0->d);
      __m512 da4 = _mm512_castps128_ps512(_mm_cvtph_ps(_mm_set_epi64x(0, a_delta)));
      __m512 da01 = _mm512_permutexvar_ps(rows01, da4), da23 = _mm512_permutexvar_ps(rows23, da4);
      __m512i a01 = _mm512_xor_si512(flip, _mm512_inserti64x4(_mm512_castsi256_si512(load(a0)), load(a1), 1));
      __m512i a23 = _mm512_xor_si512(flip, _mm512_inserti64x4(_mm512_castsi256_si512(load(a2)), load(a3), 1));
      for (int64_t j = 0; j < RN; ++j) {
        const block_q8_0 *bj = B + ldb*(jj+j) + l;
        __m512i b = _mm512_broadcast_i64x4(load(bj));
        __m512i corr = _mm512_sub_epi32(_mm512_setzero_si512(), _mm512_dpbusd_epi32(_mm512_setzero_si512(), flip, b));
        __m512 db = _mm512_set1_ps(unhalf(bj->d));
        Cv[j][0] = _mm512_fmadd_ps(_mm512_mul_ps(da01, db), _mm512_cvtepi32_ps(_mm512_dpbusd_epi32(corr, a01, b)), Cv[j][0]);
        Cv[j][1] = _mm512_fmadd_ps(_mm512_mul_ps(da23, db), _mm512_cvtepi32_ps(_mm512_dpbusd_epi32(corr, a23, b)), Cv[j][1]);
      }
    }
    for (int64_t j = 0; j < RN; ++j)
      for (int64_t h = 0; h < 2; ++h) {
        C[ldc*(jj+j) + (ii+2*h+0)] = hsum(_mm512_castps512_ps256(Cv[j][h]));
        C[ldc*(jj+j) + (ii+2*h+1)] = hsum(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(Cv[j][h]), 1)));
      }
  }
};

#include KERNEL  // the kernel under test, struct New: build with -DKERNEL='"split.inc"'

int NTH = 1;
int main(int argc, char **argv) {
  if (argc > 2) NTH = atoi(argv[2]);
  std::mt19937 rng(1);
  int reps = argc > 1 ? atoi(argv[1]) : 200;
  struct Shape { int64_t m, k; };
  std::vector<Shape> shapes = {{576, 18}, {1536, 18}, {576, 48}, {192, 18}, {49152, 18}, {640, 20}, {17, 18}, {33, 5}};
  bool allok = true;
  for (auto s : shapes) {
    for (int n : {1, 2, 3, 4, 5, 7, 8, 9, 12, 16, 17, 32}) {
      std::vector<block_q8_0> A(s.m * s.k), B(n * s.k);
      auto fill = [&](std::vector<block_q8_0> &v) {
        std::uniform_int_distribution<int> q(-127, 127); std::uniform_real_distribution<float> d(0.001f, 0.05f);
        for (auto &b : v) { b.d = _cvtss_sh(d(rng), 0); for (auto &x : b.qs) x = (int8_t)q(rng); }
      };
      fill(A); fill(B);
      std::vector<float> Cref(s.m * n), Cnew(s.m * n, -1), Cnew1(s.m * n, -1);
      // reference: the new arithmetic, scalar
      for (int64_t j = 0; j < n; ++j) for (int64_t r = 0; r < s.m; ++r) {
        float acc = 0;
        for (int64_t l = 0; l < s.k; ++l) {
          const block_q8_0 &a = A[r*s.k + l], &b = B[j*s.k + l];
          int32_t isum = 0; for (int t = 0; t < 32; ++t) isum += a.qs[t] * b.qs[t];
          acc = std::fma(unhalf(a.d) * unhalf(b.d), (float)isum, acc);
        }
        Cref[j*s.m + r] = acc;
      }
      for (int nth : {1, 2, 3}) {
        for (int ith = 0; ith < nth; ++ith) { New nk{A.data(), B.data(), Cnew.data(), s.k, s.k, s.k, s.m, ith, nth}; nk.gemm(s.m, n); }
        if (memcmp(Cref.data(), Cnew.data(), Cref.size()*4)) { allok = false; printf("MISMATCH m=%ld k=%ld n=%d nth=%d\n", s.m, s.k, n, nth); }
      }
      // n-independence: column j of an n-column product equals the 1-column product
      for (int64_t j = 0; j < n; ++j) {
        New nk{A.data(), B.data() + j*s.k, Cnew1.data(), s.k, s.k, s.k, s.m, 0, 1}; nk.gemm(s.m, 1);
        if (memcmp(Cnew1.data(), Cnew.data() + j*s.m, s.m*4)) { allok = false; printf("N-DEP m=%ld n=%d j=%ld\n", s.m, n, j); }
      }
    }
  }
  printf("correctness: %s\n", allok ? "OK" : "FAIL");
  // timing, one thread, SmolLM2-like layer set: per "token-layer": q(576x576) k,v(192x576) o(576x576) gate,up(1536x576) down(576x1536)
  std::vector<Shape> layer = {{576,18},{192,18},{192,18},{576,18},{1536,18},{1536,18},{576,48}};
  for (int n : {1, 2, 4, 8, 16, 32}) {
    double t_old = 1e30, t_new = 1e30;
    std::vector<std::vector<block_q8_0>> As; std::vector<block_q8_0> B(n * 48);
    for (auto s : layer) As.emplace_back(s.m * s.k * 30);  // 30 layers' worth of weights
    std::vector<float> C(1536 * n);
    for (int rep = 0; rep < 25; ++rep) {
      for (int which = 0; which < 2; ++which) {
        auto t0 = std::chrono::steady_clock::now();
        auto body = [&](int ith, int nth) {
          std::vector<float> Cl(1536 * n);
          for (int L = 0; L < 30; ++L) for (size_t i = 0; i < layer.size(); ++i) {
            auto s = layer[i]; const block_q8_0 *Ap = As[i].data() + L * s.m * s.k;
            if (which == 0) { Old o{Ap, B.data(), Cl.data(), s.k, s.k, s.k, s.m, ith, nth}; o.gemm(s.m, n); }
            else { New o{Ap, B.data(), Cl.data(), s.k, s.k, s.k, s.m, ith, nth}; o.gemm(s.m, n); }
          } };
        if (NTH == 1) body(0, 1); else { std::thread th(body, 1, 2); body(0, 2); th.join(); }
        double t = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        (which == 0 ? t_old : t_new) = std::min(which == 0 ? t_old : t_new, t);
      }
    }
    printf("n=%2d  old %.3f ms  new %.3f ms  ratio %.2f\n", n, t_old, t_new, t_old / t_new);
  }
}
