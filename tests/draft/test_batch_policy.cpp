// The batch policy (src/engine/batch_policy.h) against naive references: the split cost
// against a simulation of llama.cpp's split_equal, and trimming against brute force.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "engine/batch_policy.h"

namespace reader {
namespace {

// llama.cpp's split_equal over per-sequence streams, simulated: each pass takes, from every
// sequence that still has tokens, as many as the one with the fewest left.
double simulated_split_cost(std::vector<int> left, const PassCost& cost) {
  double total = 0;
  for (;;) {
    int take = 0, seqs = 0;
    for (int l : left)
      if (l > 0) take = take == 0 ? l : std::min(take, l), ++seqs;
    if (seqs == 0) return total;
    total += cost(seqs, take);
    for (int& l : left)
      if (l > 0) l -= take;
  }
}

// A pass priced by a chain's curve, c(sequences x each), as without a batch table.
PassCost chain_pass_cost(CostCurve cost) {
  return [cost = std::move(cost)](int sequences, int each) { return cost(sequences * each); };
}

PassCost test_curve() {
  return chain_pass_cost(
      CostCurve({{1, 1.0}, {2, 1.17}, {4, 1.47}, {8, 1.9}, {16, 3.2}, {32, 5.2}}));
}

// Like a measured batch table: every stream in a pass adds its own overhead, so the cost
// is not a function of the token count alone.
PassCost stream_curve() {
  const CostCurve chain({{1, 1.0}, {2, 1.2}, {4, 1.8}, {8, 2.4}, {16, 3.0}, {32, 4.8}});
  return
      [chain](int sequences, int each) { return chain(sequences * each) + 0.2 * (sequences - 1); };
}

double expected_tokens(const std::vector<std::vector<double>>& alphas,
                       const std::vector<int>& keep) {
  double gain = 0;
  for (size_t s = 0; s < alphas.size(); ++s) {
    double run = 1.0;
    gain += 1.0;
    for (int i = 0; i < keep[s]; ++i)
      gain += run = std::min(run, alphas[s][static_cast<size_t>(i)]);
  }
  return gain;
}

double simulated_step_cost(const std::vector<int>& prefill, const std::vector<int>& keep,
                           const PassCost& cost) {
  std::vector<int> lengths = prefill;
  for (int k : keep) lengths.push_back(k + 1);
  return simulated_split_cost(lengths, cost);
}

// What trimming maximises. Without prompt chunks: expected tokens over the step's cost. With
// them, whose cost is paid whatever is drafted: expected tokens less the draft's extra cost
// at `rate`, the ratio the sequences reach without the chunks.
double value(const std::vector<std::vector<double>>& alphas, const std::vector<int>& prefill,
             const std::vector<int>& keep, const PassCost& cost, double rate = 0) {
  if (prefill.empty()) return expected_tokens(alphas, keep) / simulated_step_cost({}, keep, cost);
  const std::vector<int> none(alphas.size(), 0);
  return expected_tokens(alphas, keep) - rate * (simulated_step_cost(prefill, keep, cost) -
                                                 simulated_step_cost(prefill, none, cost));
}

TEST(BatchPolicyTest, SplitCostMatchesSimulation) {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 2000; ++trial) {
    const PassCost cost = trial % 2 ? test_curve() : stream_curve();
    std::vector<int> lengths(1 + rng() % 8);
    for (int& l : lengths) l = 1 + static_cast<int>(rng() % 6);
    EXPECT_NEAR(split_step_cost(lengths, cost), simulated_split_cost(lengths, cost), 1e-9);
  }
}

TEST(BatchPolicyTest, TrimIsAPrefixNeverWorseThanPlainStepsOrAnyCommonCap) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 1000; ++trial) {
    const PassCost cost = trial % 2 ? test_curve() : stream_curve();
    std::vector<std::vector<double>> alphas(1 + rng() % 5);
    for (auto& a : alphas) {
      a.resize(rng() % 5);
      double run = 1.0;
      for (double& x : a) x = run *= std::uniform_real_distribution<double>(0.2, 1.0)(rng);
    }
    std::vector<int> prefill;
    if (rng() % 3 == 0) prefill.push_back(1 + static_cast<int>(rng() % 64));
    const std::vector<int> keep = trim_drafts(alphas, prefill, cost);
    ASSERT_EQ(keep.size(), alphas.size());
    for (size_t s = 0; s < keep.size(); ++s) {
      EXPECT_GE(keep[s], 0);
      EXPECT_LE(keep[s], static_cast<int>(alphas[s].size()));
    }
    const double rate = value(alphas, {}, trim_drafts(alphas, {}, cost), cost);
    const double got = value(alphas, prefill, keep, cost, rate);
    EXPECT_GE(got + 1e-12, value(alphas, prefill, std::vector<int>(alphas.size(), 0), cost, rate));
    for (int cap = 1; cap <= 4; ++cap) {
      std::vector<int> capped(alphas.size());
      for (size_t s = 0; s < alphas.size(); ++s)
        capped[s] = std::min(cap, static_cast<int>(alphas[s].size()));
      EXPECT_GE(got + 1e-12, value(alphas, prefill, capped, cost, rate));
    }
  }
}

// A prompt chunk in the decode is paid for whatever is drafted, so it must not make drafts
// look cheap: beside 256 prompt tokens, drafts that would not pay without the chunk are
// dropped, and near-certain ones are kept.
TEST(BatchPolicyTest, APromptChunkDoesNotMakeDraftsCheap) {
  const PassCost cost = test_curve();
  const std::vector<std::vector<double>> unsure(8, std::vector<double>{0.3, 0.1});
  EXPECT_EQ(trim_drafts(unsure, {}, cost), std::vector<int>(8, 0));
  EXPECT_EQ(trim_drafts(unsure, {256}, cost), std::vector<int>(8, 0));
  // (Over the whole step, prompt tokens included, the first tokens looked worth it.)
  EXPECT_GT(expected_tokens(unsure, std::vector<int>(8, 1)) /
                simulated_step_cost({256}, std::vector<int>(8, 1), cost),
            expected_tokens(unsure, std::vector<int>(8, 0)) /
                simulated_step_cost({256}, std::vector<int>(8, 0), cost));
  const std::vector<std::vector<double>> sure(8, std::vector<double>{0.99, 0.98});
  const auto keep = trim_drafts(sure, {256}, cost);
  EXPECT_GT(std::accumulate(keep.begin(), keep.end(), 0), 0);
}

TEST(BatchPolicyTest, SaturatedBatchDraftsNothing) {
  // At 32 sequences the curve is near linear: only certain tokens could pay, and 0.9 does not.
  const CostCurve linear({{1, 1.0}, {32, 32.0}, {64, 64.0}});
  std::vector<std::vector<double>> alphas(32, std::vector<double>{0.9, 0.8});
  for (int k : trim_drafts(alphas, {}, chain_pass_cost(linear))) EXPECT_EQ(k, 0);
}

TEST(BatchPolicyTest, OneUnevenDraftMustPayForItsOwnPass) {
  // Four sequences, one with a likely 3-token draft: a second pass costs c(3) on top of c(4).
  std::vector<std::vector<double>> alphas = {{0.9, 0.8, 0.7}, {}, {}, {}};
  const auto keep = trim_drafts(alphas, {}, test_curve());
  const double with = value(alphas, {}, keep, test_curve());
  EXPECT_GE(with, value(alphas, {}, {0, 0, 0, 0}, test_curve()));
}

}  // namespace
}  // namespace reader
