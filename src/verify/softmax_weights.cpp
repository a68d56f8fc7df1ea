// Softmax weights and their block sums for the sampled pick (softmax_weights.h).
#include "verify/softmax_weights.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

#include "util/cpu_avx2.h"

namespace reader::detail {
namespace {

constexpr double kLog2e = 1.4426950408889634;
// ln 2 split so that k * kLn2Hi is exact for the |k| <= 1010 used here (32 significant bits).
constexpr double kLn2Hi = 6.93147180369123816490e-01;
constexpr double kLn2Lo = 1.90821492927058770002e-10;
// Adding 1.5 * 2^52 rounds a double below 2^51 in magnitude to an integer (nearest, ties to
// even) and leaves that integer in the low bits of the sum's representation.
constexpr double kRoundMagic = 6755399441055744.0;
constexpr std::int64_t kRoundMagicBits = 0x4338000000000000;
constexpr double kLowest = -700.0;
// exp(r) = sum of r^j / j! for j <= 13: for |r| <= ln(2) / 2 the first term left out is
// below 2e-18 of the sum.
constexpr double kC[14] = {1.0,
                           1.0,
                           1.0 / 2,
                           1.0 / 6,
                           1.0 / 24,
                           1.0 / 120,
                           1.0 / 720,
                           1.0 / 5040,
                           1.0 / 40320,
                           1.0 / 362880,
                           1.0 / 3628800,
                           1.0 / 39916800,
                           1.0 / 479001600,
                           1.0 / 6227020800};

// Every step below is one IEEE operation, in the order the AVX2 path takes them (no fused
// multiply-add: the library is built for the baseline ISA and as ISO C++, which contracts
// nothing), so the two paths round alike.
inline double exp_nonpositive(double x) {
  x = x > kLowest ? x : kLowest;  // what _mm256_max_pd(x, lowest) gives, NaN included
  const double shifted = x * kLog2e + kRoundMagic;
  const double k = shifted - kRoundMagic;
  double r = x - k * kLn2Hi;
  r = r - k * kLn2Lo;
  // Estrin's scheme: the same sum as Horner's, in a tree of depth 4 instead of a chain of 13.
  const double r2 = r * r, r4 = r2 * r2, r8 = r4 * r4;
  const double a0 = kC[0] + kC[1] * r, a1 = kC[2] + kC[3] * r, a2 = kC[4] + kC[5] * r;
  const double a3 = kC[6] + kC[7] * r, a4 = kC[8] + kC[9] * r, a5 = kC[10] + kC[11] * r;
  const double a6 = kC[12] + kC[13] * r;
  const double b0 = a0 + a1 * r2, b1 = a2 + a3 * r2, b2 = a4 + a5 * r2;
  const double p = (b0 + b1 * r4) + (b2 + a6 * r4) * r8;
  std::int64_t bits;
  std::memcpy(&bits, &shifted, sizeof bits);
  const std::uint64_t scale_bits = static_cast<std::uint64_t>(bits - kRoundMagicBits + 1023) << 52;
  double scale;
  std::memcpy(&scale, &scale_bits, sizeof scale);
  return p * scale;
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx2"))) inline __m256d c(int j) { return _mm256_set1_pd(kC[j]); }
// x + y * z, two roundings, as the scalar path.
__attribute__((target("avx2"))) inline __m256d madd(__m256d x, __m256d y, __m256d z) {
  return _mm256_add_pd(x, _mm256_mul_pd(y, z));
}

// Four weights (softmax_weight's steps, lane by lane).
__attribute__((target("avx2"))) inline void four_weights(const float* logits, double* out,
                                                         float max_logit, float inv_t,
                                                         float cutoff) {
  const __m128 v = _mm_loadu_ps(logits);
  // Lanes below the cutoff (or NaN) get weight 0: all ones where v >= cutoff, widened.
  const __m256d kept = _mm256_castsi256_pd(
      _mm256_cvtepi32_epi64(_mm_castps_si128(_mm_cmp_ps(v, _mm_set1_ps(cutoff), _CMP_GE_OQ))));
  const __m128 scaled = _mm_mul_ps(_mm_sub_ps(v, _mm_set1_ps(max_logit)), _mm_set1_ps(inv_t));
  const __m256d x = _mm256_max_pd(_mm256_cvtps_pd(scaled), _mm256_set1_pd(kLowest));
  const __m256d magic = _mm256_set1_pd(kRoundMagic);
  const __m256d shifted = _mm256_add_pd(_mm256_mul_pd(x, _mm256_set1_pd(kLog2e)), magic);
  const __m256d k = _mm256_sub_pd(shifted, magic);
  __m256d r = _mm256_sub_pd(x, _mm256_mul_pd(k, _mm256_set1_pd(kLn2Hi)));
  r = _mm256_sub_pd(r, _mm256_mul_pd(k, _mm256_set1_pd(kLn2Lo)));
  const __m256d r2 = _mm256_mul_pd(r, r), r4 = _mm256_mul_pd(r2, r2), r8 = _mm256_mul_pd(r4, r4);
  const __m256d a0 = madd(c(0), c(1), r), a1 = madd(c(2), c(3), r), a2 = madd(c(4), c(5), r);
  const __m256d a3 = madd(c(6), c(7), r), a4 = madd(c(8), c(9), r), a5 = madd(c(10), c(11), r);
  const __m256d a6 = madd(c(12), c(13), r);
  const __m256d b0 = madd(a0, a1, r2), b1 = madd(a2, a3, r2), b2 = madd(a4, a5, r2);
  const __m256d p = madd(madd(b0, b1, r4), madd(b2, a6, r4), r8);
  const __m256i scale = _mm256_slli_epi64(
      _mm256_add_epi64(_mm256_castpd_si256(shifted), _mm256_set1_epi64x(1023 - kRoundMagicBits)),
      52);
  _mm256_storeu_pd(out, _mm256_and_pd(kept, _mm256_mul_pd(p, _mm256_castsi256_pd(scale))));
}

__attribute__((target("avx2"))) void softmax_weights_avx2(const float* logits, std::size_t n,
                                                          float max_logit, float inv_t,
                                                          float cutoff, double* out) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    four_weights(logits + i, out + i, max_logit, inv_t, cutoff);
    four_weights(logits + i + 4, out + i + 4, max_logit, inv_t, cutoff);
  }
  for (; i + 4 <= n; i += 4) four_weights(logits + i, out + i, max_logit, inv_t, cutoff);
  for (; i < n; ++i) out[i] = softmax_weight(logits[i], max_logit, inv_t, cutoff);
}
#endif

}  // namespace

double softmax_weight(float logit, float max_logit, float inv_t, float cutoff) {
  return logit >= cutoff ? exp_nonpositive(static_cast<double>((logit - max_logit) * inv_t)) : 0.0;
}

void softmax_weights_scalar(const float* logits, std::size_t n, float max_logit, float inv_t,
                            float cutoff, double* out) {
  for (std::size_t i = 0; i < n; ++i) out[i] = softmax_weight(logits[i], max_logit, inv_t, cutoff);
}

void softmax_weights(const float* logits, std::size_t n, float max_logit, float inv_t, float cutoff,
                     double* out) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (cpu_has_avx2()) return softmax_weights_avx2(logits, n, max_logit, inv_t, cutoff, out);
#endif
  softmax_weights_scalar(logits, n, max_logit, inv_t, cutoff, out);
}

double block_sums(const double* w, std::size_t n, std::vector<double>& sums) {
  const std::size_t blocks = (n + kWeightBlock - 1) / kWeightBlock;
  const std::size_t full = n / kWeightBlock;
  sums.assign(blocks, 0.0);
  // Eight blocks side by side: eight independent chains of additions, each in index order.
  std::size_t b = 0;
  for (; b + 8 <= full; b += 8) {
    double s[8] = {};
    const double* base = w + b * kWeightBlock;
    for (std::size_t i = 0; i < kWeightBlock; ++i)
      for (std::size_t j = 0; j < 8; ++j) s[j] += base[j * kWeightBlock + i];
    std::copy(s, s + 8, sums.begin() + static_cast<std::ptrdiff_t>(b));
  }
  for (; b < blocks; ++b) {
    double s = 0;
    for (std::size_t i = b * kWeightBlock; i < std::min(n, (b + 1) * kWeightBlock); ++i) s += w[i];
    sums[b] = s;
  }
  double total = 0;
  for (double s : sums) total += s;
  return total;
}

std::size_t weighted_index(const double* w, std::size_t n, const std::vector<double>& sums,
                           double target) {
  double before = 0;
  for (std::size_t b = 0; b < sums.size(); ++b) {
    const double after = before + sums[b];
    if (target < after) {
      double acc = before;
      for (std::size_t i = b * kWeightBlock; i < std::min(n, (b + 1) * kWeightBlock); ++i)
        if (w[i] > 0 && target < (acc += w[i])) return i;
    }
    before = after;
  }
  for (std::size_t i = n; i-- > 0;)
    if (w[i] > 0) return i;
  return n - 1;
}

}  // namespace reader::detail
