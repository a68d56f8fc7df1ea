// StepTimes (apps/common/step_times.h): step times by size, summed over generations, against
// sums kept naively per (size, step), and the ratios `reader tune` and `reader bench` use.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <vector>

#include "step_times.h"

namespace reader {
namespace {

TEST(StepTimesTest, MatchesNaiveSumsOverRandomGenerations) {
  std::mt19937 rng(41);
  for (int trial = 0; trial < 200; ++trial) {
    StepTimes times;
    std::map<int, std::pair<double, int>> naive;  // size -> (ms, steps)
    const int generations = std::uniform_int_distribution<>(0, 6)(rng);
    for (int g = 0; g < generations; ++g) {
      GenerationStats st;
      const int sizes = std::uniform_int_distribution<>(0, 20)(rng);
      st.verified_histogram.assign(static_cast<size_t>(sizes), 0);
      st.verify_ms_by_size.assign(static_cast<size_t>(sizes), 0.0);
      for (int n = 0; n < sizes; ++n) {
        const int steps = std::uniform_int_distribution<>(0, 3)(rng) == 0
                              ? 0
                              : std::uniform_int_distribution<>(1, 30)(rng);
        for (int k = 0; k < steps; ++k) {
          const double ms = std::uniform_real_distribution<>(1.0, 20.0)(rng);
          st.verify_ms_by_size[static_cast<size_t>(n)] += ms;
          naive[n].first += ms;
        }
        st.verified_histogram[static_cast<size_t>(n)] = steps;
        naive[n].second += steps;
      }
      times.add(st);
    }
    for (int n = 0; n < 24; ++n) {
      const auto it = naive.find(n);
      const int steps = it == naive.end() ? 0 : it->second.second;
      EXPECT_EQ(times.steps(n), steps) << n;
      if (steps > 0)
        EXPECT_NEAR(times.mean_ms(n), it->second.first / steps, 1e-9) << n;
      else
        EXPECT_EQ(times.mean_ms(n), 0.0) << n;
    }
    const double base = std::uniform_real_distribution<>(1.0, 10.0)(rng);
    const int min_steps = std::uniform_int_distribution<>(0, 40)(rng);
    std::vector<std::pair<int, double>> expected;
    for (const auto& [n, sum] : naive)
      if (n >= 1 && sum.second > 0 && sum.second >= min_steps)
        expected.emplace_back(n, sum.first / sum.second / base);
    const auto got = times.relative_to(base, min_steps);
    ASSERT_EQ(got.size(), expected.size());
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(got[i].first, expected[i].first);
      EXPECT_NEAR(got[i].second, expected[i].second, 1e-9);
    }
  }
}

TEST(StepTimesTest, NoBaseNoRatiosAndOutOfRangeSizesAreEmpty) {
  StepTimes times;
  GenerationStats st;
  st.verified_histogram = {0, 4, 2};
  st.verify_ms_by_size = {0.0, 40.0, 30.0};
  times.add(st);
  EXPECT_TRUE(times.relative_to(0.0, 1).empty());
  EXPECT_EQ(times.steps(-1), 0);
  EXPECT_EQ(times.steps(99), 0);
  EXPECT_EQ(times.mean_ms(99), 0.0);
  const auto r = times.relative_to(10.0, 1);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0], (std::pair<int, double>{1, 1.0}));
  EXPECT_EQ(r[1], (std::pair<int, double>{2, 1.5}));
  // Histograms of different lengths (a stats object whose two vectors disagree) count only
  // the sizes both hold.
  GenerationStats odd;
  odd.verified_histogram = {0, 1, 1, 1};
  odd.verify_ms_by_size = {0.0, 10.0};
  times.add(odd);
  EXPECT_EQ(times.steps(1), 5);
  EXPECT_EQ(times.steps(3), 0);
}

// The curve tune and bench make: c(1) = 1, then sizes of 2+ tokens seen kEnoughSteps times,
// each at least the one before (a naive scan over sizes).
TEST(StepTimesTest, CurveAgainstAutoregressiveStepsIsNonDecreasingFromOne) {
  std::mt19937 rng(52);
  for (int trial = 0; trial < 200; ++trial) {
    StepTimes ar, drafted;
    GenerationStats ar_stats, st;
    const double ar_ms = std::uniform_real_distribution<>(2.0, 8.0)(rng);
    const int ar_steps = std::uniform_int_distribution<>(0, 3)(rng);
    ar_stats.verified_histogram = {0, ar_steps};
    ar_stats.verify_ms_by_size = {0.0, ar_ms * ar_steps};
    ar.add(ar_stats);
    const int sizes = std::uniform_int_distribution<>(0, 20)(rng);
    for (int n = 0; n < sizes; ++n) {
      const int steps = std::uniform_int_distribution<>(0, 25)(rng);
      st.verified_histogram.push_back(steps);
      st.verify_ms_by_size.push_back(steps * ar_ms * std::uniform_real_distribution<>(0.5, 4)(rng));
    }
    drafted.add(st);
    std::vector<std::pair<int, double>> expected = {{1, 1.0}};
    for (int n = 2; n < sizes && ar_steps > 0; ++n)
      if (drafted.steps(n) >= StepTimes::kEnoughSteps)
        expected.emplace_back(n, std::max(expected.back().second, drafted.mean_ms(n) / ar_ms));
    const CostCurve got = drafted.curve_against(ar);
    ASSERT_EQ(got.points().size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
      EXPECT_EQ(got.points()[i].first, expected[i].first);
      EXPECT_NEAR(got.points()[i].second, expected[i].second, 1e-9);
    }
  }
}

}  // namespace
}  // namespace reader
