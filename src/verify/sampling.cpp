// Sampling policy: temperature, top-k, top-p, then inverse-CDF with a (seed, t) uniform.
#include "reader/sampling.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "util/hash.h"

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

Token argmax(const float* logits, int n_vocab) {
  int best = 0;
  for (int i = 1; i < n_vocab; ++i)
    if (logits[i] > logits[best]) best = i;
  return best;
}

void top_k_tokens(const float* logits, int n_vocab, int k,
                  std::vector<std::pair<float, Token>>& best) {
  best.assign(static_cast<size_t>(k), {-INFINITY, -1});
  for (int v = 0; v < n_vocab; ++v) {
    if (logits[v] <= best.back().first) continue;
    size_t j = best.size() - 1;
    while (j > 0 && logits[v] > best[j - 1].first) {
      best[j] = best[j - 1];
      --j;
    }
    best[j] = {logits[v], v};
  }
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
  const float max_logit = *std::max_element(logits, logits + n_vocab);
  const auto weight = [&](float logit) {
    return std::exp(static_cast<double>((logit - max_logit) * inv_t));
  };
  const double u = position_uniform(params_.seed, position);

  // Candidates: tokens whose weight is at least e^-40 of the best one's. The rest carry
  // less than n_vocab * 4e-18 of the mass together, and skipping their exp() makes a pick
  // ~50x cheaper (a 49k vocabulary otherwise costs ~1 ms per position here). Token-id order.
  const float cutoff = max_logit - 40.0f * params_.temperature;
  scratch_.clear();
  for (int i = 0; i < n_vocab; ++i)
    if (logits[i] >= cutoff) scratch_.emplace_back(logits[i], i);
  auto first = scratch_.begin();
  size_t keep = scratch_.size();

  const bool filtered =
      (params_.top_k > 0 && static_cast<size_t>(params_.top_k) < keep) || params_.top_p < 1.0f;
  if (filtered) {
    // Filtering needs a ranking: logit desc, id asc (deterministic on ties).
    const auto higher = [](const std::pair<float, Token>& a, const std::pair<float, Token>& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    };
    if (params_.top_k > 0 && static_cast<size_t>(params_.top_k) < keep) {
      keep = static_cast<size_t>(params_.top_k);
      std::nth_element(first, first + static_cast<std::ptrdiff_t>(keep), scratch_.end(), higher);
    }
    if (params_.top_p < 1.0f) {
      double total = 0;
      for (size_t i = 0; i < keep; ++i) total += weight(scratch_[i].first);
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
  }
  probs_.resize(keep);
  double total = 0;
  for (size_t i = 0; i < keep; ++i) total += probs_[i] = weight(scratch_[i].first);
  const double target = u * total;
  double acc = 0;
  for (size_t i = 0; i < keep; ++i)
    if (target < (acc += probs_[i])) return scratch_[i].second;
  return scratch_[keep - 1].second;
}

}  // namespace reader
