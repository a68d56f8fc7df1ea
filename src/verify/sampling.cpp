// Sampling policy: temperature, top-k, top-p, then inverse-CDF with a (seed, t) uniform.
#include "reader/sampling.h"

#include <algorithm>
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif
#include <cmath>
#include <stdexcept>
#include <string>

#include "util/cpu_avx2.h"
#include "util/hash.h"
#include "verify/softmax_weights.h"

namespace reader {

void check_sampling(const SamplingParams& p) {
  // Written so that NaN fails every test (a comparison with NaN is false).
  if (!(p.temperature >= 0.0f && p.temperature <= 1e6f))
    throw std::invalid_argument("temperature must be a finite number >= 0, got " +
                                std::to_string(p.temperature));
  if (p.top_k < 0) throw std::invalid_argument("top_k must be >= 0");
  if (!(p.top_p > 0.0f && p.top_p <= 1.0f))
    throw std::invalid_argument("top_p must be in (0, 1], got " + std::to_string(p.top_p));
}

double position_uniform(std::uint64_t seed, std::uint64_t position) {
  const std::uint64_t bits = mix64(mix64(seed) ^ (position * 0xd1342543de82ef95ULL));
  return static_cast<double>(bits >> 11) * 0x1.0p-53;  // 53 random bits -> [0, 1)
}

// Every verified token scans a whole logit row (49k floats for SmolLM2) once for argmax and,
// under the recycling speculator, once more for its top-k: scalar, 30 and 13 us here, 1.5% of
// a READER step. With AVX2 they take 4 us each and return exactly what the scalar rules do.
namespace {

Token argmax_scalar(const float* logits, int n_vocab) {
  int best = 0;
  for (int i = 1; i < n_vocab; ++i)
    if (logits[i] > logits[best]) best = i;
  return best;
}

// Inserts token v into `best` (sorted, best first) if the scalar scan would.
inline void top_k_insert(const float* logits, int v, std::vector<std::pair<float, Token>>& best) {
  if (logits[v] <= best.back().first) return;
  size_t j = best.size() - 1;
  while (j > 0 && logits[v] > best[j - 1].first) {
    best[j] = best[j - 1];
    --j;
  }
  best[j] = {logits[v], v};
}

#if defined(__x86_64__) && defined(__GNUC__)
// The maximum, then the first index holding it: the scalar rule's answer when no NaN is in
// the row (ties keep the lowest id; -0 == +0 as in the scalar comparison). A NaN changes
// which index the scalar rule keeps, so such a row goes to it.
__attribute__((target("avx2"))) Token argmax_avx2(const float* x, int n) {
  int i = 0;
  __m256 top8 = _mm256_set1_ps(-INFINITY);
  __m256 nan8 = _mm256_setzero_ps();
  for (; i + 8 <= n; i += 8) {
    const __m256 v = _mm256_loadu_ps(x + i);
    top8 = _mm256_max_ps(top8, v);
    nan8 = _mm256_or_ps(nan8, _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
  }
  if (_mm256_movemask_ps(nan8) != 0) return argmax_scalar(x, n);
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, top8);
  float top = lanes[0];
  for (int j = 1; j < 8; ++j) top = std::max(top, lanes[j]);
  for (int j = i; j < n; ++j) {
    if (std::isnan(x[j])) return argmax_scalar(x, n);
    top = std::max(top, x[j]);
  }
  const __m256 want = _mm256_set1_ps(top);
  for (i = 0; i + 8 <= n; i += 8) {
    const int hit = _mm256_movemask_ps(_mm256_cmp_ps(_mm256_loadu_ps(x + i), want, _CMP_EQ_OQ));
    if (hit != 0) return i + __builtin_ctz(static_cast<unsigned>(hit));
  }
  for (; i < n; ++i)
    if (x[i] == top) return i;
  return 0;
}

// Eight logits at a time against the current k-th best: only lanes the scalar scan would not
// skip, !(x <= threshold) (NaN included), go through its insertion, in index order. The k-th
// best only rises, except that a NaN can take its place and let a lower logit in after it:
// then the rest of the block is scanned one by one.
__attribute__((target("avx2"))) void top_k_avx2(const float* logits, int n_vocab,
                                                std::vector<std::pair<float, Token>>& best) {
  int i = 0;
  for (; i + 8 <= n_vocab; i += 8) {
    const float threshold = best.back().first;
    auto lanes = static_cast<unsigned>(_mm256_movemask_ps(
        _mm256_cmp_ps(_mm256_loadu_ps(logits + i), _mm256_set1_ps(threshold), _CMP_NLE_UQ)));
    for (; lanes != 0; lanes &= lanes - 1) {
      const int v = i + __builtin_ctz(lanes);
      top_k_insert(logits, v, best);
      if (!(best.back().first >= threshold)) {
        for (int w = v + 1; w < i + 8; ++w) top_k_insert(logits, w, best);
        break;
      }
    }
  }
  for (; i < n_vocab; ++i) top_k_insert(logits, i, best);
}
#endif

}  // namespace

Token argmax(const float* logits, int n_vocab) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (cpu_has_avx2()) return argmax_avx2(logits, n_vocab);
#endif
  return argmax_scalar(logits, n_vocab);
}

void top_k_tokens(const float* logits, int n_vocab, int k,
                  std::vector<std::pair<float, Token>>& best) {
  best.assign(static_cast<size_t>(k), {-INFINITY, -1});
#if defined(__x86_64__) && defined(__GNUC__)
  if (cpu_has_avx2()) return top_k_avx2(logits, n_vocab, best);
#endif
  for (int v = 0; v < n_vocab; ++v) top_k_insert(logits, v, best);
}

void candidate_shares(const std::vector<std::pair<float, Token>>& best,
                      std::vector<double>& shares) {
  shares.assign(best.size(), 0.0);
  double total = 0;
  for (size_t j = 0; j < best.size(); ++j)
    if (best[j].second >= 0)
      total += shares[j] = std::exp(static_cast<double>(best[j].first - best[0].first));
  const bool usable = total > 0 && std::isfinite(total);
  for (double& s : shares) s = usable ? s / total : 0.0;
}

Token Sampler::pick(const float* logits, int n_vocab, std::uint64_t position) {
  if (params_.greedy()) return argmax(logits, n_vocab);

  const float inv_t = 1.0f / params_.temperature;
  // The best logit: argmax's vectorized scan, unless it kept a NaN in first place (its rule
  // lets nothing beat one there); then a scan that skips NaN. A row of NaN has none: the
  // greedy rule's answer.
  const Token best = argmax(logits, n_vocab);
  float max_logit = logits[best];
  if (std::isnan(max_logit)) {
    for (int i = 0; i < n_vocab; ++i)
      if (!std::isnan(logits[i]) && !(logits[i] <= max_logit)) max_logit = logits[i];
    if (std::isnan(max_logit)) return best;
  }
  const double u = position_uniform(params_.seed, position);
  // The support: tokens whose weight is at least e^-40 of the best one's. The rest carry less
  // than n_vocab * 4e-18 of the mass together.
  const float cutoff = max_logit - 40.0f * params_.temperature;
  // Weights of l[0, n) into probs_ and their block sums; returns the total (softmax_weights.h).
  const auto weigh = [&](const float* l, size_t n) {
    probs_.resize(n);
    detail::softmax_weights(l, n, max_logit, inv_t, cutoff, probs_.data());
    return detail::block_sums(probs_.data(), n, block_sums_);
  };
  // The draw: inverse CDF over the weights in token-id order.
  const auto draw = [&](const float* l, size_t n) {
    const double total = weigh(l, n);
    return detail::weighted_index(probs_.data(), n, block_sums_, u * total);
  };
  // Without filters every token keeps its weight, 0 below the cutoff: no candidate list.
  if (params_.top_k == 0 && params_.top_p >= 1.0f)
    return static_cast<Token>(draw(logits, static_cast<size_t>(n_vocab)));

  scratch_.clear();
  for (int i = 0; i < n_vocab; ++i)
    if (logits[i] >= cutoff) scratch_.emplace_back(logits[i], i);
  auto first = scratch_.begin();
  size_t keep = scratch_.size();
  const auto weight = [&](float logit) {
    return detail::softmax_weight(logit, max_logit, inv_t, cutoff);
  };
  // The logits of scratch_[0, n), contiguous for the weights.
  const auto head_logits = [&](size_t n) {
    kept_logits_.resize(n);
    for (size_t i = 0; i < n; ++i) kept_logits_[i] = scratch_[i].first;
    return kept_logits_.data();
  };

  // Filtering needs a ranking: logit desc, id asc (deterministic on ties).
  const auto higher = [](const std::pair<float, Token>& a, const std::pair<float, Token>& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  };
  if (params_.top_k > 0 && static_cast<size_t>(params_.top_k) < keep) {
    keep = static_cast<size_t>(params_.top_k);
    std::nth_element(first, first + static_cast<std::ptrdiff_t>(keep), scratch_.end(), higher);
  } else if (params_.top_p >= 1.0f) {  // top-k keeps everything: the unfiltered draw
    return static_cast<Token>(draw(logits, static_cast<size_t>(n_vocab)));
  }
  if (params_.top_p < 1.0f) {
    const double total = weigh(head_logits(keep), keep);
    // Sort a growing head until it holds top_p of the mass: top-p rarely needs many tokens.
    size_t sorted = std::min<size_t>(keep, 64);
    for (;;) {
      std::partial_sort(first, first + static_cast<std::ptrdiff_t>(sorted),
                        first + static_cast<std::ptrdiff_t>(keep), higher);
      double acc = 0;
      size_t cut = 0;
      while (cut < sorted && acc < params_.top_p * total) acc += weight(scratch_[cut++].first);
      if (acc >= params_.top_p * total || sorted == keep) {
        keep = std::max<size_t>(cut, 1);
        break;
      }
      sorted = std::min(keep, sorted * 4);
    }
  }
  // Walk the kept set in token-id order: canonical, independent of the sort's tie handling.
  std::sort(first, first + static_cast<std::ptrdiff_t>(keep),
            [](const auto& a, const auto& b) { return a.second < b.second; });
  return scratch_[draw(head_logits(keep), keep)].second;
}

}  // namespace reader
