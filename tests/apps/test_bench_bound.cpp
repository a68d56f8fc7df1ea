// reader bench --bound's two pricings (apps/reader/bench_bound.h): under the profile's curve,
// a set's bound is its summed AR cost over the oracle's summed cost; under the steps a run
// paid, the same with the paid curve up to its largest size and the profile's shape beyond.
// Checked against copy_oracle_bound directly, on random outputs that copy from their prompts.
#include <gtest/gtest.h>

#include <random>

#include "bench_bound.h"
#include "reader/copy_bound.h"
#include "step_times.h"

namespace reader::cli {
namespace {

using nlohmann::json;

// A profile whose curve does not depend on the context (so the paid pricing is easy to state).
const CostCurve kProfile({{1, 1.0}, {2, 1.2}, {4, 1.6}, {8, 2.4}, {16, 4.0}});

struct Item {
  std::string set;
  Tokens prompt, output;
};

std::vector<Item> random_items(std::mt19937& rng) {
  std::vector<Item> items;
  for (const char* set : {"a", "b", "c"})
    for (int k = 0; k < 3; ++k) {
      Item it{set, {}, {}};
      const int vocab = std::uniform_int_distribution<>(2, 6)(rng);
      std::uniform_int_distribution<Token> token(0, vocab - 1);
      for (int i = std::uniform_int_distribution<>(1, 40)(rng); i > 0; --i)
        it.prompt.push_back(token(rng));
      for (int i = std::uniform_int_distribution<>(1, 60)(rng); i > 0; --i)
        it.output.push_back(token(rng));
      items.push_back(std::move(it));
    }
  return items;
}

// The set's bound the slow way: every output priced by `curve`.
double naive_bound(const std::vector<Item>& items, const std::string& set, const CostCurve& curve) {
  double ar = 0, oracle = 0;
  for (const Item& it : items) {
    if (it.set != set) continue;
    const CopyBound b = copy_oracle_bound(copyable_run_lengths(it.prompt, it.output), curve);
    ar += b.ar_cost;
    oracle += b.cost;
  }
  return oracle > 0 ? ar / oracle : 1.0;
}

TEST(BenchBoundTest, BothPricingsMatchTheOracleUnderTheirCurves) {
  std::mt19937 rng(52);
  for (int trial = 0; trial < 40; ++trial) {
    const auto items = random_items(rng);
    BoundTable table([](int) { return kProfile; }, nullptr);
    for (const Item& it : items) table.add(it.set, it.prompt, it.output);
    // Set a paid like the profile, b steeper up to 4 tokens, c not measured beyond one token.
    const double steeper = std::uniform_real_distribution<>(1.0, 3.0)(rng);
    const CostCurve paid_b({{1, 1.0}, {2, 1 + 0.2 * steeper}, {4, 1 + 0.6 * steeper}});
    const std::map<std::string, CostCurve> paid = {
        {"a", kProfile}, {"b", paid_b}, {"c", CostCurve({{1, 1.0}})}};
    json summary = json::array();
    for (const char* set : {"a", "b", "c"})
      summary.push_back({{"set", set}, {"method", "reader"}, {"speedup", 1.5}});
    const std::string md = table.annotate(summary, paid);
    EXPECT_NE(md.find("paid"), std::string::npos);
    // Past 4 tokens, b's curve goes on in the profile's shape from its last measured point.
    std::vector<std::pair<int, double>> b_points = paid_b.points();
    for (int n : {8, 16}) b_points.emplace_back(n, paid_b(4) * kProfile(n) / kProfile(4));
    const CostCurve b_curve(b_points);
    for (const json& row : summary) {
      const std::string set = row["set"];
      EXPECT_NEAR(row["bound"].get<double>(), naive_bound(items, set, kProfile), 1e-9) << set;
      EXPECT_NEAR(row["fraction_of_bound"].get<double>(), 1.5 / row["bound"].get<double>(), 1e-9);
      if (set == "c") {
        EXPECT_FALSE(row.contains("bound_paid"));  // nothing measured: no second pricing
        continue;
      }
      const double expected = naive_bound(items, set, set == "a" ? kProfile : b_curve);
      EXPECT_NEAR(row["bound_paid"].get<double>(), expected, 1e-9) << set;
      EXPECT_NEAR(row["fraction_of_bound_paid"].get<double>(), 1.5 / expected, 1e-9);
      // Dearer steps never make copying pay more.
      if (set == "b") {
        EXPECT_LE(row["bound_paid"].get<double>(), row["bound"].get<double>() + 1e-9);
      }
    }
  }
}

TEST(BenchBoundTest, WithoutPaidCurvesOnlyTheProfilesPricing) {
  BoundTable table([](int) { return kProfile; }, nullptr);
  table.add("a", Tokens{1, 2, 3, 1, 2}, Tokens{3, 1, 2, 3, 1, 2, 3});
  json summary = json::array({{{"set", "a"}, {"method", "reader"}, {"speedup", 1.2}}});
  const std::string md = table.annotate(summary);
  EXPECT_EQ(md.find("paid"), std::string::npos);
  EXPECT_TRUE(summary[0].contains("bound"));
  EXPECT_FALSE(summary[0].contains("bound_paid"));
}

TEST(BenchBoundTest, NoShareColumnForNoDraftBaselines) {
  BoundTable table([](int) { return kProfile; }, nullptr);
  table.add("a", Tokens{1, 2, 3, 1, 2}, Tokens{3, 1, 2, 3, 1, 2, 3});
  json summary = json::array();
  for (const char* m : {"ar", "llama:ar", "py:ar", "reader"})
    summary.push_back({{"set", "a"}, {"method", m}, {"speedup", 1.0}});
  const std::string md = table.annotate(summary);
  EXPECT_NE(md.find(" reader share |"), std::string::npos);
  EXPECT_EQ(md.find("ar share"), std::string::npos) << md;
}

}  // namespace
}  // namespace reader::cli
