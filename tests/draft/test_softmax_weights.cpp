// The sampled pick's weights and block sums (src/verify/softmax_weights.h) against the obvious
// computations: std::exp, and sums and walks in index order.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "verify/softmax_weights.h"

namespace reader::detail {
namespace {

std::vector<float> random_logits(std::mt19937& rng, int n, float spread) {
  std::normal_distribution<float> normal(0.0f, spread);
  std::vector<float> row(static_cast<size_t>(n));
  for (float& l : row) l = normal(rng);
  return row;
}

TEST(SoftmaxWeightsTest, WithinRoundingOfStdExp) {
  std::mt19937 rng(7);
  double worst = 0;
  for (int iter = 0; iter < 200; ++iter) {
    const float spreads[] = {0.1f, 3.0f, 30.0f, 300.0f};
    const std::vector<float> row =
        random_logits(rng, 1 + static_cast<int>(rng() % 3000), spreads[iter % 4]);
    const float max_logit = *std::max_element(row.begin(), row.end());
    const float temps[] = {0.05f, 0.8f, 1.0f, 7.0f};
    const float inv_t = 1.0f / temps[rng() % 4];
    std::vector<double> w(row.size());
    softmax_weights(row.data(), row.size(), max_logit, inv_t, -INFINITY, w.data());
    for (size_t i = 0; i < row.size(); ++i) {
      const double x = static_cast<double>((row[i] - max_logit) * inv_t);
      if (x < -700) continue;  // taken as -700 by design
      const double want = std::exp(x);
      const double rel = std::fabs(w[i] - want) / want;
      worst = std::max(worst, rel);
      ASSERT_LE(rel, 1e-15) << "x " << x << " got " << w[i] << " want " << want;
    }
  }
  std::printf("largest relative difference from std::exp: %.3g\n", worst);
}

TEST(SoftmaxWeightsTest, EdgesOfTheDomain) {
  const float max_logit = 5.0f;
  const std::vector<float> row = {5.0f, 4.0f, -1000.0f, std::nanf(""), -INFINITY, 3.0f};
  std::vector<double> w(row.size());
  softmax_weights(row.data(), row.size(), max_logit, 1.0f, 3.5f, w.data());
  EXPECT_EQ(w[0], 1.0);                    // the best token: exactly 1
  EXPECT_DOUBLE_EQ(w[1], std::exp(-1.0));  // kept
  EXPECT_EQ(w[2], 0.0);                    // below the cutoff
  EXPECT_EQ(w[3], 0.0);                    // NaN: never drawn
  EXPECT_EQ(w[4], 0.0);                    // -inf
  EXPECT_EQ(w[5], 0.0);                    // below the cutoff
  softmax_weights(row.data(), row.size(), max_logit, 1.0f, -INFINITY, w.data());
  EXPECT_GT(w[2], 0.0);  // e^-1005 is taken as e^-700, not 0
  EXPECT_LT(w[2], 1e-300);
  EXPECT_EQ(w[4], w[2]);
}

TEST(SoftmaxWeightsTest, VectorAndScalarPathsGiveTheSameBits) {
  std::mt19937 rng(11);
  for (int iter = 0; iter < 300; ++iter) {
    std::vector<float> row = random_logits(rng, 1 + static_cast<int>(rng() % 500), 10.0f);
    if (iter % 5 == 0) row[rng() % row.size()] = std::nanf("");
    const float max_logit = 4.0f, inv_t = 1.0f / (0.1f + static_cast<float>(rng() % 30) / 10);
    const float cutoff = iter % 2 ? -INFINITY : -8.0f;
    std::vector<double> a(row.size()), b(row.size());
    softmax_weights(row.data(), row.size(), max_logit, inv_t, cutoff, a.data());
    softmax_weights_scalar(row.data(), row.size(), max_logit, inv_t, cutoff, b.data());
    for (size_t i = 0; i < row.size(); ++i)
      ASSERT_EQ(std::bit_cast<std::uint64_t>(a[i]), std::bit_cast<std::uint64_t>(b[i]))
          << "index " << i << " of " << row.size();
  }
}

TEST(SoftmaxWeightsTest, BlockSumsAndWalkMatchTheRunningSum) {
  std::mt19937 rng(13);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  int checked = 0;
  for (int iter = 0; iter < 500; ++iter) {
    const size_t n = 1 + rng() % 2000;
    std::vector<double> w(n);
    for (double& x : w) x = rng() % 4 == 0 ? 0.0 : std::exp(-20 * uniform(rng));
    w[rng() % n] = 1.0;
    std::vector<double> sums;
    const double total = block_sums(w.data(), n, sums);
    ASSERT_EQ(sums.size(), (n + kWeightBlock - 1) / kWeightBlock);
    double naive = 0;
    for (double x : w) naive += x;
    ASSERT_NEAR(total, naive, 1e-12 * naive);
    for (int k = 0; k < 20; ++k) {
      const double target = uniform(rng) * total;
      const size_t got = weighted_index(w.data(), n, sums, target);
      ASSERT_GT(w[got], 0.0) << "a token of weight 0 was drawn";
      // The naive walk: first index whose running sum passes the target, unless the target is
      // within rounding of a boundary.
      double acc = 0;
      size_t want = n;
      bool near = false;
      for (size_t i = 0; i < n && want == n; ++i) {
        acc += w[i];
        near = near || std::fabs(acc - target) <= 1e-12 * total;
        if (target < acc) want = i;
      }
      if (near) continue;
      ++checked;
      ASSERT_EQ(got, want) << "n " << n << " target " << target;
    }
  }
  EXPECT_GT(checked, 9000);
}

}  // namespace
}  // namespace reader::detail
