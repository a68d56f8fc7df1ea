// The copy-oracle bound: run lengths against a naive search of every occurrence, and the
// dynamic program against brute-force enumeration of every step partition.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <random>

#include "reader/copy_bound.h"

namespace reader {
namespace {

Tokens random_tokens(std::mt19937& rng, int max_len, int alphabet) {
  Tokens t(rng() % static_cast<unsigned>(max_len + 1));
  for (Token& x : t) x = static_cast<Token>(rng() % static_cast<unsigned>(alphabet));
  return t;
}

// Longest output[i..i+k) occurring inside text (all of it), by trying every start and length.
int naive_run(const Tokens& text, const Tokens& output, size_t i) {
  for (size_t k = output.size() - i; k > 0; --k)
    for (size_t s = 0; s + k <= text.size(); ++s)
      if (std::equal(output.begin() + static_cast<std::ptrdiff_t>(i),
                     output.begin() + static_cast<std::ptrdiff_t>(i + k),
                     text.begin() + static_cast<std::ptrdiff_t>(s)))
        return static_cast<int>(k);
  return 0;
}

// An external text (the datastore's role), searched naively; a match stays in one document.
class NaiveMatcher : public ExternalMatcher {
 public:
  explicit NaiveMatcher(std::vector<Tokens> docs) : docs_(std::move(docs)) {}
  size_t longest_match_from(TokenSpan needle) const override {
    const Tokens n(needle.begin(), needle.end());
    size_t best = 0;
    for (const Tokens& d : docs_)
      if (!n.empty()) best = std::max(best, static_cast<size_t>(naive_run(d, n, 0)));
    return best;
  }

 private:
  std::vector<Tokens> docs_;
};

TEST(CopyBoundTest, RunLengthsMatchNaiveSearch) {
  std::mt19937 rng(11);
  for (int round = 0; round < 400; ++round) {
    const int alphabet = 1 + static_cast<int>(rng() % 4);
    const Tokens prompt = random_tokens(rng, 12, alphabet),
                 output = random_tokens(rng, 16, alphabet);
    const std::vector<int> runs = copyable_run_lengths(prompt, output);
    ASSERT_EQ(runs.size(), output.size());
    for (size_t i = 0; i < output.size(); ++i) {
      Tokens text = prompt;
      text.insert(text.end(), output.begin(), output.begin() + static_cast<std::ptrdiff_t>(i));
      EXPECT_EQ(runs[i], naive_run(text, output, i)) << "round " << round << " i " << i;
    }
  }
}

TEST(CopyBoundTest, RunLengthsTakeTheLongerOfTextAndDatastore) {
  std::mt19937 rng(12);
  for (int round = 0; round < 200; ++round) {
    const int alphabet = 1 + static_cast<int>(rng() % 4);
    const Tokens prompt = random_tokens(rng, 8, alphabet),
                 output = random_tokens(rng, 12, alphabet);
    const NaiveMatcher ds({random_tokens(rng, 10, alphabet), random_tokens(rng, 10, alphabet)});
    const std::vector<int> own = copyable_run_lengths(prompt, output);
    const std::vector<int> with_ds = copyable_run_lengths(prompt, output, &ds);
    for (size_t i = 0; i < output.size(); ++i)
      EXPECT_EQ(
          with_ds[i],
          std::max(own[i], static_cast<int>(ds.longest_match_from(TokenSpan(output).subspan(i)))));
  }
}

TEST(CopyBoundTest, NoOverlapWithTheTokensBeingDrafted) {
  // "a a a a": at i = 1 only one "a" is committed, so only one can be copied.
  const Tokens output = {5, 5, 5, 5};
  EXPECT_EQ(copyable_run_lengths({}, output), (std::vector<int>{0, 1, 2, 1}));
}

// Least cost over every partition of output[1..n) into steps of d + 1 tokens, d <= runs[j].
double brute_force_cost(const std::vector<int>& runs, const CostCurve& cost, int max_step) {
  const int n = static_cast<int>(runs.size());
  std::function<double(int)> go = [&](int j) -> double {
    if (j == n) return 0.0;
    double best = std::numeric_limits<double>::infinity();
    for (int d = 0; j + d + 1 <= n && d <= runs[static_cast<size_t>(j)] && d + 1 <= max_step; ++d)
      best = std::min(best, cost(d + 1) + go(j + d + 1));
    return best;
  };
  return n <= 1 ? 0.0 : go(1);
}

CostCurve random_curve(std::mt19937& rng) {
  std::vector<std::pair<int, double>> pts = {{1, 1.0}};
  std::uniform_real_distribution<double> step(0.0, 1.5);
  for (int n = 2; n <= 16; n *= 2) pts.emplace_back(n, pts.back().second + step(rng));
  return CostCurve(pts);
}

TEST(CopyBoundTest, DynamicProgramMatchesBruteForce) {
  std::mt19937 rng(13);
  for (int round = 0; round < 500; ++round) {
    const int alphabet = 1 + static_cast<int>(rng() % 3);
    const Tokens prompt = random_tokens(rng, 10, alphabet),
                 output = random_tokens(rng, 13, alphabet);
    const std::vector<int> runs = copyable_run_lengths(prompt, output);
    const CostCurve cost = random_curve(rng);
    const int max_step = static_cast<int>(rng() % 6);  // 0: the curve's largest n (16)
    const CopyBound b = copy_oracle_bound(runs, cost, max_step);
    const int cap = max_step == 0 ? 16 : max_step;
    EXPECT_NEAR(b.cost, brute_force_cost(runs, cost, cap), 1e-9) << "round " << round;
    // The plan is feasible and adds up: every token committed once, each draft copyable.
    const int n = static_cast<int>(output.size());
    EXPECT_EQ(b.tokens, std::max(0, n - 1));
    double sum = 0;
    int j = 1;
    for (int d : b.drafts) {
      ASSERT_LT(j, n);
      EXPECT_LE(d, runs[static_cast<size_t>(j)]);
      EXPECT_LE(d + 1, cap);
      sum += cost(d + 1);
      j += d + 1;
    }
    if (n > 1) {
      EXPECT_EQ(j, n);
    }
    EXPECT_NEAR(sum, b.cost, 1e-9);
    EXPECT_GE(b.speedup(), 1.0 - 1e-12);  // drafting nothing is always a plan
    EXPECT_LE(b.speedup(), speedup_ceiling(cost, cap) + 1e-9);
  }
}

TEST(CopyBoundTest, VerbatimCopyReachesTheCeilingShape) {
  // The output repeats the prompt: one step could draft everything, but the cost curve makes
  // the oracle split it where n / c(n) is best.
  const CostCurve cost({{1, 1.0}, {2, 1.2}, {4, 1.6}, {8, 4.0}});
  Tokens prompt(40);
  for (size_t i = 0; i < prompt.size(); ++i) prompt[i] = static_cast<Token>(i);
  const Tokens output = prompt;
  const CopyBound b = copy_oracle_bound(copyable_run_lengths(prompt, output), cost);
  EXPECT_EQ(b.tokens, 39);
  // 39 tokens = 9 steps of 4 (cost 1.6) + one of 3 (cost 1.4).
  EXPECT_NEAR(b.cost, 9 * 1.6 + 1.4, 1e-9);
  EXPECT_NEAR(speedup_ceiling(cost), 4 / 1.6, 1e-12);
}

TEST(CopyBoundTest, NothingToCopyMeansAutoregressive) {
  const Tokens output = {1, 2, 3, 4, 5, 6};
  const CopyBound b =
      copy_oracle_bound(copyable_run_lengths({}, output), fallback_cost_model().at(512));
  EXPECT_DOUBLE_EQ(b.speedup(), 1.0);
  EXPECT_EQ(b.drafts, std::vector<int>(5, 0));
  EXPECT_DOUBLE_EQ(copy_oracle_bound(std::vector<int>{}, fallback_cost_model().at(512)).speedup(),
                   1.0);
}

}  // namespace
}  // namespace reader
