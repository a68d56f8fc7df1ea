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

// llama.cpp's split_equal(sequential) over per-sequence streams, simulated as it walks the
// batch: tokens in id order (lengths[i] of id i); a pass collects sequences in batch order,
// each next one only if its id is the last one's plus one, then takes as many tokens from
// each as the one with the fewest unused.
double simulated_split_cost(const std::vector<int>& lengths, const PassCost& cost) {
  std::vector<int> batch;  // each token's sequence id
  for (size_t id = 0; id < lengths.size(); ++id) batch.insert(batch.end(), lengths[id], int(id));
  std::vector<bool> used(batch.size(), false);
  double total = 0;
  for (;;) {
    std::vector<int> seqs;
    for (size_t i = 0; i < batch.size(); ++i) {
      if (used[i] || std::find(seqs.begin(), seqs.end(), batch[i]) != seqs.end()) continue;
      if (seqs.empty() || batch[i] == seqs.back() + 1) seqs.push_back(batch[i]);
    }
    if (seqs.empty()) return total;
    int take = 1 << 30;
    for (int q : seqs) {
      int unused = 0;
      for (size_t i = 0; i < batch.size(); ++i) unused += batch[i] == q && !used[i];
      take = std::min(take, unused);
    }
    for (int q : seqs)
      for (size_t i = 0, n = 0; i < batch.size() && int(n) < take; ++i)
        if (batch[i] == q && !used[i]) used[i] = true, ++n;
    total += cost(static_cast<int>(seqs.size()), take);
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

// The decode's lengths in id order: prompt chunks first (as the tests lay them out), then
// each decoding sequence's kept draft and its root.
double simulated_step_cost(const std::vector<int>& prefill, const std::vector<int>& keep,
                           const PassCost& cost) {
  std::vector<int> lengths = prefill;
  for (int k : keep) lengths.push_back(k + 1);
  return simulated_split_cost(lengths, cost);
}

// Lanes in the same order: prompt chunks at the lowest ids, then the drafts.
std::vector<Lane> lanes_of(size_t n_decoding, const std::vector<int>& prefill) {
  std::vector<Lane> lanes;
  for (int c : prefill) lanes.push_back({-1, c});
  for (size_t d = 0; d < n_decoding; ++d) lanes.push_back({static_cast<int>(d), 0});
  return lanes;
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

std::vector<int> trim(const std::vector<std::vector<double>>& alphas,
                      const std::vector<int>& prefill, const PassCost& cost) {
  return trim_drafts(alphas, lanes_of(alphas.size(), prefill), cost);
}

TEST(BatchPolicyTest, SplitCostMatchesSimulation) {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 2000; ++trial) {
    const PassCost cost = trial % 2 ? test_curve() : stream_curve();
    std::vector<int> lengths(1 + rng() % 8);  // some ids free (0)
    for (int& l : lengths) l = static_cast<int>(rng() % 7);
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
    const std::vector<int> keep = trim(alphas, prefill, cost);
    ASSERT_EQ(keep.size(), alphas.size());
    for (size_t s = 0; s < keep.size(); ++s) {
      EXPECT_GE(keep[s], 0);
      EXPECT_LE(keep[s], static_cast<int>(alphas[s].size()));
    }
    const double rate = value(alphas, {}, trim(alphas, {}, cost), cost);
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
  EXPECT_EQ(trim(unsure, {}, cost), std::vector<int>(8, 0));
  EXPECT_EQ(trim(unsure, {256}, cost), std::vector<int>(8, 0));
  // (Over the whole step, prompt tokens included, the first tokens looked worth it.)
  EXPECT_GT(expected_tokens(unsure, std::vector<int>(8, 1)) /
                simulated_step_cost({256}, std::vector<int>(8, 1), cost),
            expected_tokens(unsure, std::vector<int>(8, 0)) /
                simulated_step_cost({256}, std::vector<int>(8, 0), cost));
  const std::vector<std::vector<double>> sure(8, std::vector<double>{0.99, 0.98});
  const auto keep = trim(sure, {256}, cost);
  EXPECT_GT(std::accumulate(keep.begin(), keep.end(), 0), 0);
}

TEST(BatchPolicyTest, SaturatedBatchDraftsNothing) {
  // At 32 sequences the curve is near linear: only certain tokens could pay, and 0.9 does not.
  const CostCurve linear({{1, 1.0}, {32, 32.0}, {64, 64.0}});
  std::vector<std::vector<double>> alphas(32, std::vector<double>{0.9, 0.8});
  for (int k : trim(alphas, {}, chain_pass_cost(linear))) EXPECT_EQ(k, 0);
}

TEST(BatchPolicyTest, OneUnevenDraftMustPayForItsOwnPass) {
  // Four sequences, one with a likely 3-token draft: a second pass costs c(3) on top of c(4).
  std::vector<std::vector<double>> alphas = {{0.9, 0.8, 0.7}, {}, {}, {}};
  const auto keep = trim(alphas, {}, test_curve());
  const double with = value(alphas, {}, keep, test_curve());
  EXPECT_GE(with, value(alphas, {}, {0, 0, 0, 0}, test_curve()));
}

TEST(BatchPolicyTest, AShorterSequenceBetweenLongerOnesSplitsTheirPass) {
  // Ids 0 and 2 with 3 tokens each, id 1 with 1: llama.cpp runs 3 x 1, then 1 x 2 twice.
  const PassCost cost = test_curve();
  EXPECT_NEAR(split_step_cost({3, 1, 3}, cost), cost(3, 1) + 2 * cost(1, 2), 1e-12);
  EXPECT_NEAR(split_step_cost({3, 3, 1}, cost), cost(3, 1) + cost(2, 2), 1e-12);
  EXPECT_NEAR(split_step_cost({2, 0, 2}, cost), 2 * cost(1, 2), 1e-12);
  // So a sure draft on every other sequence is worth less than the same drafts side by side.
  const std::vector<std::vector<double>> alternate = {{0.8}, {}, {0.8}, {}, {0.8}, {}};
  const std::vector<std::vector<double>> adjacent = {{0.8}, {0.8}, {0.8}, {}, {}, {}};
  EXPECT_LT(value(alternate, {}, {1, 0, 1, 0, 1, 0}, cost),
            value(adjacent, {}, {1, 1, 1, 0, 0, 0}, cost));
}

}  // namespace
}  // namespace reader
