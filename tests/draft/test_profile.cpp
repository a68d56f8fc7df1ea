// Calibration data: cost curves across context lengths, acceptance priors from counts,
// and the profile file format (round trip; corrupt files give one clear error).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <utility>
#include <vector>

#include "reader/profile.h"
#include "reader/tree_policy.h"

namespace reader {
namespace {

TEST(CostModelTest, InterpolatesBetweenContextsAndClampsOutside) {
  const CostModel m(
      {{256, CostCurve({{1, 1.0}, {8, 2.0}})}, {2048, CostCurve({{1, 1.0}, {8, 4.0}})}});
  EXPECT_DOUBLE_EQ(m.at(100)(8), 2.0);
  EXPECT_DOUBLE_EQ(m.at(256)(8), 2.0);
  EXPECT_DOUBLE_EQ(m.at(1152)(8), 3.0);
  EXPECT_DOUBLE_EQ(m.at(5000)(8), 4.0);
  EXPECT_DOUBLE_EQ(m.at(1152)(1), 1.0);
  EXPECT_THROW(CostModel({}), std::invalid_argument);
  EXPECT_THROW(CostModel({{512, CostCurve({{1, 1.0}})}, {256, CostCurve({{1, 1.0}})}}),
               std::invalid_argument);
}

// Found by fuzz/fuzz_profile: a decreasing curve loaded fine, then extrapolated to negative
// costs, and CostModel::at threw while generating; negative contexts overflowed at()'s int
// arithmetic.
TEST(CostModelTest, RefusesCurvesThatCouldGoNegative) {
  EXPECT_THROW(CostCurve({{1, 1.0}, {2, 1.1}, {4, 0.4}}), std::invalid_argument);
  EXPECT_NO_THROW(CostCurve({{1, 1.0}, {2, 1.5}, {4, 1.5}}));  // flat is fine (measured cummax)
  EXPECT_THROW(
      CostModel({{-2147483647 - 1, CostCurve({{1, 1.0}})}, {2147483647, CostCurve({{1, 1.0}})}}),
      std::invalid_argument);
  const CostModel m(
      {{0, CostCurve({{1, 1.0}, {2, 1.1}})}, {1024, CostCurve({{1, 1.0}, {8, 2.5}})}});
  for (int context : {0, 300, 1024, 1 << 20})
    for (int n : {1, 2, 7, 64, 512}) EXPECT_GT(m.at(context)(n), 0.0);
}

// Randomized, by the properties the rule promises: the shortest context's curve is what
// generation measured at every measured size; past the largest, it grows as the probe's does
// from there; every longer context's curve is the least non-decreasing curve at or above it
// plus the probe's gap between the two contexts; the batch table is kept. Contexts probe
// different sizes, generation measures sparse sizes, sometimes past the probe's largest.
TEST(CostModelTest, StepsInPlaceReplaceTheProbedShortContextCurve) {
  std::mt19937 rng(31);
  std::uniform_real_distribution<double> step(0.0, 0.5);
  const auto random_curve = [&](int max_n, double keep) {
    std::vector<std::pair<int, double>> points = {{1, 1.0}};
    for (int n = 2; n <= max_n; ++n)
      if (n == max_n || std::uniform_real_distribution<double>(0, 1)(rng) < keep)
        points.emplace_back(n, points.back().second + step(rng));
    return CostCurve(points);
  };
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<CostModel::Curve> curves;
    for (int context : {256, 1024, 4096})
      curves.push_back({context, random_curve(8 + static_cast<int>(rng() % 25), 0.5)});
    CostModel probed(curves);
    const std::vector<CostModel::BatchCurve> table = {{2, CostCurve({{1, 1.4}, {2, 1.9}})},
                                                      {4, CostCurve({{1, 2.3}, {2, 2.6}})}};
    probed.set_batch(512, table);
    const CostCurve in_place = random_curve(2 + static_cast<int>(rng() % 40), 0.3);
    const int last = in_place.points().back().first;
    const CostModel m = with_steps_in_place(probed, in_place);

    ASSERT_EQ(m.curves().size(), probed.curves().size());
    EXPECT_EQ(m.batch_context(), 512);
    ASSERT_EQ(m.batch().size(), table.size());
    for (size_t b = 0; b < table.size(); ++b) {
      EXPECT_EQ(m.batch()[b].sequences, table[b].sequences);
      EXPECT_EQ(m.batch()[b].curve.points(), table[b].curve.points());
    }
    const CostCurve& first = probed.curves().front().curve;
    const CostCurve& m0 = m.curves().front().curve;
    for (const auto& [n, c] : in_place.points()) EXPECT_NEAR(m0(n), c, 1e-9) << "n " << n;
    for (const auto& [n, c] : first.points()) {
      if (n > last) {
        EXPECT_NEAR(m0(n) / m0(last), c / first(last), 1e-9) << "n " << n;
      }
    }
    // The shortest context's curve by the rule, at any size.
    const auto rule0 = [&](int n) {
      return n <= last ? in_place(n) : in_place(last) * first(n) / first(last);
    };
    for (size_t ci = 1; ci < m.curves().size(); ++ci) {
      const CostCurve& probe = probed.curves()[ci].curve;
      const CostCurve& mc = m.curves()[ci].curve;
      double floor = 1.0;  // the least non-decreasing curve at or above m0 + gap
      for (const auto& [n, c] : mc.points()) {
        floor = std::max(floor, rule0(n) + probe(n) - first(n));
        EXPECT_NEAR(c, floor, 1e-9) << "context " << probed.curves()[ci].context << " n " << n;
      }
      EXPECT_DOUBLE_EQ(mc.points().front().second, 1.0);
    }
  }
  // Measured in place exactly as probed: nothing changes.
  const CostModel same({{256, CostCurve({{1, 1.0}, {4, 1.5}, {8, 2.0}})},
                        {1024, CostCurve({{1, 1.0}, {4, 1.8}, {8, 2.6}})}});
  const CostModel m = with_steps_in_place(same, CostCurve({{1, 1.0}, {4, 1.5}, {8, 2.0}}));
  for (int context : {256, 1024})
    for (int n : {1, 2, 4, 6, 8, 12}) EXPECT_DOUBLE_EQ(m.at(context)(n), same.at(context)(n));
  // Nothing measured (c(1) alone): the probe's curves.
  const CostModel none = with_steps_in_place(same, CostCurve({{1, 1.0}}));
  for (int context : {256, 1024})
    for (int n : {1, 2, 4, 6, 8, 12}) EXPECT_DOUBLE_EQ(none.at(context)(n), same.at(context)(n));
}

TEST(CostModelTest, BatchPassesFollowTheTableAndTheChainWithout) {
  CostModel m({{256, CostCurve({{1, 1.0}, {4, 1.8}, {8, 2.4}, {16, 3.0}})},
               {1024, CostCurve({{1, 1.0}, {4, 2.0}, {8, 2.8}, {16, 3.6}})}});
  // No table: a pass of B x k tokens is priced as one chain of B * k.
  EXPECT_DOUBLE_EQ(m.pass(4, 2, 256), m.at(256)(8));
  m.set_batch(256, {{2, CostCurve({{1, 1.4}, {2, 1.9}})}, {4, CostCurve({{1, 2.3}, {2, 2.6}})}});
  EXPECT_DOUBLE_EQ(m.pass(1, 4, 256), m.at(256)(4));  // one sequence: its chain
  EXPECT_DOUBLE_EQ(m.pass(2, 2, 256), 1.9);
  EXPECT_DOUBLE_EQ(m.pass(4, 1, 256), 2.3);
  EXPECT_DOUBLE_EQ(m.pass(3, 1, 256), (1.4 + 2.3) / 2);
  EXPECT_DOUBLE_EQ(m.pass(8, 2, 256), 2 * 2.6);  // beyond the last B: proportional
  // A longer context scales the table as the chain curve grows for as many tokens.
  EXPECT_DOUBLE_EQ(m.pass(4, 2, 1024), 2.6 * 2.8 / 2.4);
  for (int b = 1; b <= 9; ++b)
    for (int k = 1; k <= 9; ++k) {
      EXPECT_LE(m.pass(b, k, 256), m.pass(b, k + 1, 256) + 1e-12) << b << " " << k;
      EXPECT_LE(m.pass(b, k, 256), m.pass(b + 1, k, 256) + 1e-12) << b << " " << k;
    }
  EXPECT_THROW(m.set_batch(256, {{1, CostCurve({{1, 1.0}})}}), std::invalid_argument);
  EXPECT_THROW(m.set_batch(256, {{4, CostCurve({{1, 2.0}})}, {2, CostCurve({{1, 1.4}})}}),
               std::invalid_argument);
}

TEST(TreeShapeTest, NumbersMustBeInts) {
  // Found by fuzz/fuzz_profile: get<int>() on 1e90 is undefined behaviour.
  EXPECT_THROW(parse_tree_shape(R"({"d_search": 1e90})", "t"), std::invalid_argument);
  EXPECT_THROW(parse_tree_shape(R"({"d_deep": 2147483648})", "t"), std::invalid_argument);
  EXPECT_THROW(parse_tree_shape(R"({"speculator": [[-1, 0.5]]})", "t"), std::invalid_argument);
  EXPECT_THROW(parse_tree_shape(R"({"deepen_at": "2"})", "t"), std::invalid_argument);
  const TreeShape s = parse_tree_shape(R"({"d_search": 8.0, "speculator": [[-1, 0]]})", "t");
  EXPECT_EQ(s.d_search, 8);  // a whole float is still read
  try {
    parse_tree_shape(R"({"max_suffix_len": -1e300})", "file.json");
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("max_suffix_len must be an integer"), std::string::npos)
        << e.what();
  }
}

TEST(AcceptanceCountsTest, CellsRoundTrip) {
  for (int cell = 0; cell < AcceptanceCounts::kCells; ++cell)
    EXPECT_EQ(AcceptanceCounts::cell(AcceptanceCounts::kind(cell)), cell);
}

TEST(AcceptancePriorsTest, FollowStrongEvidenceAndStayInRange) {
  std::mt19937 rng(3);
  for (int round = 0; round < 50; ++round) {
    AcceptanceCounts counts;
    NodeKind k{DraftSource::kWidening, 1 + static_cast<int>(rng() % 12),
               static_cast<int>(rng() % 4), static_cast<Agreement>(rng() % kAgreements)};
    const double rate = std::uniform_real_distribution<double>(0, 1)(rng);
    for (int i = 0; i < 2000; ++i)
      counts.add(k, std::uniform_real_distribution<double>(0, 1)(rng) < rate);
    const std::vector<double> priors = acceptance_priors(counts);
    for (double p : priors) {
      EXPECT_GE(p, 0.0);
      EXPECT_LE(p, 1.0);
    }
    // With 2000 observations the cell's prior is its observed rate, unless isotonic pooling
    // with longer, less evidenced matches pulled it: then it can only have been pulled up.
    const double got = priors[static_cast<size_t>(AcceptanceCounts::cell(k))];
    EXPECT_GT(got, rate - 0.06);
  }
}

TEST(AcceptancePriorsTest, RetrievalIsNonDecreasingInMatchLength) {
  std::mt19937 rng(5);
  AcceptanceCounts counts;
  for (int i = 0; i < 5000; ++i) {
    NodeKind k{DraftSource::kWidening, 1 + static_cast<int>(rng() % 16), 3, Agreement::kText};
    counts.add(k, rng() % 3 == 0);  // noise: no real trend
  }
  const std::vector<double> priors = acceptance_priors(counts);
  for (int f = 2; f < AcceptanceCounts::kFeatures; ++f) {
    const double a = priors[static_cast<size_t>(
        AcceptanceCounts::cell({DraftSource::kWidening, f - 1, 3, Agreement::kText}))];
    const double b = priors[static_cast<size_t>(
        AcceptanceCounts::cell({DraftSource::kWidening, f, 3, Agreement::kText}))];
    EXPECT_LE(a, b + 1e-12) << "feature " << f;
  }
}

TEST(AcceptancePriorsTest, SecondedGuessesBorrowFromLoneOnesAndFoldIntoThem) {
  const NodeKind lone = speculator_kind(1, 0, 3), seconded = speculator_kind(1, 0, 3, true);
  const auto cell = [](const NodeKind& k) {
    return static_cast<size_t>(AcceptanceCounts::cell(k));
  };
  // Counted before seconding existed: a seconded guess is weighed as a lone one.
  AcceptanceCounts old;
  for (int i = 0; i < 100; ++i) old.add(lone, i < 60);
  const std::vector<double> old_priors = acceptance_priors(old);
  EXPECT_NEAR(old_priors[cell(seconded)], old_priors[cell(lone)], 1e-12);
  // With evidence of its own, a seconded guess follows it.
  AcceptanceCounts counts = old;
  for (int i = 0; i < 400; ++i) counts.add(seconded, i < 360);
  const std::vector<double> priors = acceptance_priors(counts);
  EXPECT_GT(priors[cell(seconded)], 0.85);
  EXPECT_LT(priors[cell(lone)], 0.65);
  // A drafter that nothing seconds sees the pooled rate in the lone cell.
  const AcceptanceCounts pooled = without_seconding(counts);
  EXPECT_EQ(pooled.tried(static_cast<int>(cell(lone))), 500);
  EXPECT_EQ(pooled.accepted(static_cast<int>(cell(lone))), 420);
  EXPECT_EQ(pooled.tried(static_cast<int>(cell(seconded))), 0);
  EXPECT_NEAR(acceptance_priors(pooled)[cell(lone)], 0.84, 0.01);
}

TEST(AcceptancePriorsTest, UncalibratedDefaultsAreCautious) {
  // Without calibration a speculator node must not look worth a drafted token at c(2) ~ 1.2,
  // except the top-1 guess, and retrieval only with long matches.
  const AcceptanceModel m;
  EXPECT_LT(m.estimate({DraftSource::kSpeculator, 1, 0, Agreement::kText}), 0.1);
  EXPECT_LT(m.estimate({DraftSource::kWidening, 2, 3, Agreement::kText}), 0.15);
  EXPECT_GT(m.estimate({DraftSource::kWidening, 8, 3, Agreement::kText}), 0.3);
}

TEST(AcceptanceModelTest, LearnsOnlineFromThePrior) {
  AcceptanceModel m(acceptance_priors(AcceptanceCounts{}), 8.0);
  const NodeKind k{DraftSource::kWidening, 4, 2, Agreement::kText};
  const double before = m.estimate(k);
  for (int i = 0; i < 40; ++i) m.record(k, true);
  EXPECT_GT(m.estimate(k), 0.8);
  for (int i = 0; i < 400; ++i) m.record(k, false);
  EXPECT_LT(m.estimate(k), before);
}

TEST(AcceptanceRecalibrationTest, ShiftsEveryEstimateTowardWhatThisTextAccepts) {
  AcceptanceRecalibration r;
  EXPECT_DOUBLE_EQ(r.adjust(0.4), 0.4);  // nothing seen: the priors stand
  r.refit();
  EXPECT_DOUBLE_EQ(r.adjust(0.4), 0.4);
  // Predicted 0.5, accepted one time in five: every estimate drops, order kept.
  std::mt19937 rng(7);
  for (int i = 0; i < 300; ++i) {
    r.record(0.5, rng() % 5 == 0);
    if (i % 3 == 2) r.refit();
  }
  EXPECT_LT(r.shift(), 0.0);
  EXPECT_GT(r.adjust(0.5), 0.12);
  EXPECT_LT(r.adjust(0.5), 0.3);
  EXPECT_LT(r.adjust(0.3), r.adjust(0.6));
  EXPECT_GT(r.adjust(0.95), 0.8);  // strong evidence stays strong
  // A copy accepts more than predicted: the shift turns positive within the window.
  for (int i = 0; i < 300; ++i) {
    r.record(0.7, rng() % 50 != 0);
    if (i % 3 == 2) r.refit();
  }
  EXPECT_GT(r.shift(), 0.0);
  EXPECT_GT(r.adjust(0.7), 0.85);
  EXPECT_LE(r.adjust(1.0), 1.0);
  EXPECT_GE(r.adjust(0.0), 0.0);
}

// Random records against a plain list of them: a recorded token's estimate is its record's
// posterior with the estimate as prior (weight 3), capped at the estimate; others untouched.
TEST(TokenRecordTest, MatchesNaiveRecordAndNeverRaises) {
  std::mt19937 rng(11);
  for (int round = 0; round < 200; ++round) {
    TokenRecord record;
    std::vector<std::pair<Token, bool>> seen;
    const int n = static_cast<int>(rng() % 40);
    for (int i = 0; i < n; ++i) {
      const auto token = static_cast<Token>(rng() % 6);
      const bool accepted = rng() % 3 == 0;
      record.record(token, accepted);
      seen.emplace_back(token, accepted);
    }
    for (Token token = 0; token < 8; ++token) {
      const double q = static_cast<double>(rng() % 1001) / 1000.0;
      double accepted = 0, tried = 0;
      for (const auto& [t, ok] : seen)
        if (t == token) {
          tried += 1;
          accepted += ok ? 1 : 0;
        }
      const double expected = tried == 0 ? q : std::min(q, (accepted + 3 * q) / (tried + 3));
      EXPECT_NEAR(record.adjust(token, q), expected, 1e-12);
      EXPECT_LE(record.adjust(token, q), q);
    }
    record.clear();
    EXPECT_DOUBLE_EQ(record.adjust(0, 0.8), 0.8);
  }
  // One rejection of a token rated 0.9 takes it to 0.675; an accepted one leaves it alone.
  TokenRecord record;
  record.record(5, false);
  record.record(6, true);
  EXPECT_NEAR(record.adjust(5, 0.9), 0.675, 1e-12);
  EXPECT_DOUBLE_EQ(record.adjust(6, 0.9), 0.9);
}

class ProfileFileTest : public ::testing::Test {
 protected:
  std::filesystem::path dir_ = std::filesystem::temp_directory_path() /
                               ("reader_profile_test_" + std::to_string(::getpid()));
  void SetUp() override { std::filesystem::create_directories(dir_); }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path write(const std::string& name, const std::string& text) {
    const auto p = dir_ / name;
    std::ofstream(p) << text;
    return p;
  }
};

TEST_F(ProfileFileTest, RoundTrips) {
  Profile p;
  p.model = "llama 135M Q8_0";
  p.tokenizer = 0xfedcba9876543210ull;
  p.machine = "cpu / build 1";
  p.threads = 2;
  p.cost_method = kCostMethod;
  p.cost = CostModel({{256, CostCurve({{1, 1.0}, {2, 1.2}, {8, 2.5}})},
                      {1024, CostCurve({{1, 1.0}, {2, 1.3}, {8, 3.0}})}});
  p.cost.set_batch(256, {{2, CostCurve({{1, 1.4}, {2, 1.9}})}, {8, CostCurve({{1, 3.4}})}});
  p.acceptance.add({DraftSource::kWidening, 5, 2, Agreement::kLongTerm}, true);
  p.acceptance.add({DraftSource::kWidening, 5, 2, Agreement::kLongTerm}, false);
  p.acceptance.add({DraftSource::kSpeculator, 4, 0, Agreement::kText}, true);
  TreeShape shape;
  shape.speculator = {{-1, 0}, {0, 0}};
  p.shape = shape;
  p.calibration = "test";
  p.datastore = "my.rds, 1000 tokens, 10 documents";
  p.drafter = kDrafter;
  save_profile(p, dir_ / "p.json");
  const Profile q = load_profile(dir_ / "p.json");
  EXPECT_EQ(q.datastore, p.datastore);
  EXPECT_EQ(q.drafter, kDrafter);
  EXPECT_EQ(q.model, p.model);
  EXPECT_EQ(q.tokenizer, p.tokenizer);
  EXPECT_EQ(q.machine, p.machine);
  EXPECT_EQ(q.threads, 2);
  EXPECT_EQ(q.cost_method, kCostMethod);
  ASSERT_EQ(q.cost.curves().size(), 2u);
  EXPECT_DOUBLE_EQ(q.cost.at(1024)(8), 3.0);
  ASSERT_EQ(q.cost.batch().size(), 2u);
  EXPECT_EQ(q.cost.batch_context(), 256);
  EXPECT_EQ(q.cost.batch()[1].sequences, 8);
  EXPECT_DOUBLE_EQ(q.cost.pass(2, 2, 256), 1.9);
  for (int cell = 0; cell < AcceptanceCounts::kCells; ++cell) {
    EXPECT_EQ(q.acceptance.tried(cell), p.acceptance.tried(cell));
    EXPECT_EQ(q.acceptance.accepted(cell), p.acceptance.accepted(cell));
  }
  ASSERT_TRUE(q.shape.has_value());
  EXPECT_EQ(q.shape->speculator.size(), 2u);
  EXPECT_EQ(q.acceptance_sampled.total_tried(), 0.0);  // not calibrated under sampling
  EXPECT_FALSE(q.cost_in_place.has_value());           // the probe's curve alone

  p.cost_in_place = CostCurve({{1, 1.0}, {2, 1.3}, {6, 2.1}});
  save_profile(p, dir_ / "p.json");
  const Profile in_place = load_profile(dir_ / "p.json");
  ASSERT_TRUE(in_place.cost_in_place.has_value());
  EXPECT_EQ(in_place.cost_in_place->points(), p.cost_in_place->points());
  p.cost_in_place.reset();

  EXPECT_TRUE(q.refiner.empty());  // none fitted

  RefinerTree tree;
  tree.feature = {0, 13, -1, 40, 2, 0, 48};
  tree.threshold = {0.1f, -2.5f, 0.f, 0.5f, 1e-7f, 3.25f, 0.5f};
  tree.leaf = {-0.25f, 0.125f, 1.f / 3, 0.f, -1e-8f, 2.f, 0.5f, -0.75f};
  p.refiner.trees = {tree, tree};
  p.refiner.trees[1].leaf[2] = 0.7f;
  p.refiner.base = 0.125;
  p.refiner.samples = 1234;
  p.refiner_calibration = "refiner test";
  save_profile(p, dir_ / "p.json");
  const Profile refined = load_profile(dir_ / "p.json");
  ASSERT_EQ(refined.refiner.trees.size(), 2u);
  for (size_t t = 0; t < 2; ++t) {  // bit for bit
    EXPECT_EQ(refined.refiner.trees[t].feature, p.refiner.trees[t].feature);
    EXPECT_EQ(refined.refiner.trees[t].threshold, p.refiner.trees[t].threshold);
    EXPECT_EQ(refined.refiner.trees[t].leaf, p.refiner.trees[t].leaf);
  }
  EXPECT_DOUBLE_EQ(refined.refiner.base, 0.125);
  EXPECT_EQ(refined.refiner.samples, 1234);
  EXPECT_TRUE(refined.refiner_sampled.empty());
  EXPECT_EQ(refined.refiner_calibration, "refiner test");
  p.refiner = {};

  p.acceptance_sampled.add({DraftSource::kWidening, 5, 2, Agreement::kLongTerm}, false);
  p.sampled_temperature = 0.8;
  save_profile(p, dir_ / "p.json");
  const Profile r = load_profile(dir_ / "p.json");
  EXPECT_DOUBLE_EQ(r.sampled_temperature, 0.8);
  for (int cell = 0; cell < AcceptanceCounts::kCells; ++cell) {
    EXPECT_EQ(r.acceptance_sampled.tried(cell), p.acceptance_sampled.tried(cell));
    EXPECT_EQ(r.acceptance_sampled.accepted(cell), p.acceptance_sampled.accepted(cell));
  }
}

TEST_F(ProfileFileTest, BadFilesGiveOneLineErrors) {
  const auto expect_error = [](const std::filesystem::path& p, const std::string& fragment) {
    try {
      load_profile(p);
      ADD_FAILURE() << "no error for " << p;
    } catch (const ProfileError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(fragment), std::string::npos) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
  };
  expect_error(dir_ / "missing.json", "cannot read");
  expect_error(write("empty.json", ""), "corrupt");
  expect_error(write("garbage.json", "{not json"), "corrupt");
  expect_error(write("other.json", R"({"format": "something else"})"), "not a reader profile");
  expect_error(write("version.json", R"({"format": "reader-profile", "version": 99})"), "version");
  expect_error(write("nocost.json", R"({"format": "reader-profile", "version": 2, "model": "m",
    "tokenizer_fingerprint": "00", "machine": "x", "threads": 2, "acceptance": []})"),
               "corrupt");
  expect_error(write("badcurve.json", R"({"format": "reader-profile", "version": 2, "model": "m",
    "tokenizer_fingerprint": "00", "machine": "x", "threads": 2,
    "cost": [{"context": 256, "curve": [[2, 1.0]]}], "acceptance": []})"),
               "corrupt");
  expect_error(write("badcounts.json", R"({"format": "reader-profile", "version": 2, "model": "m",
    "tokenizer_fingerprint": "00", "machine": "x", "threads": 2,
    "cost": [{"context": 256, "curve": [[1, 1.0]]}],
    "acceptance": [{"source": "widening", "feature": 3, "strength": 0, "agreement": 0,
                    "accepted": 5, "tried": 2}]})"),
               "corrupt");
  expect_error(write("badsource.json", R"({"format": "reader-profile", "version": 2, "model": "m",
    "tokenizer_fingerprint": "00", "machine": "x", "threads": 2,
    "cost": [{"context": 256, "curve": [[1, 1.0]]}],
    "acceptance": [{"source": "oracle", "feature": 3, "strength": 0, "agreement": 0,
                    "accepted": 1, "tried": 2}]})"),
               "source");
  expect_error(write("badtemp.json", R"({"format": "reader-profile", "version": 2, "model": "m",
    "tokenizer_fingerprint": "00", "machine": "x", "threads": 2,
    "cost": [{"context": 256, "curve": [[1, 1.0]]}], "acceptance": [],
    "acceptance_sampled": [], "sampled_temperature": -1})"),
               "sampled_temperature");
  // Found by fuzz/fuzz_profile (see CostModelTest and TreeShapeTest above).
  const std::string head = R"({"format": "reader-profile", "version": 2, "model": "m",
    "tokenizer_fingerprint": "00", "machine": "x", "acceptance": [], )";
  expect_error(write("bigversion.json", R"({"format": "reader-profile", "version": 1e90})"),
               "corrupt");
  expect_error(write("bigthreads.json", head + R"("threads": 1e12, "cost": [{"context": 0,
    "curve": [[1, 1.0]]}]})"),
               "corrupt");
  expect_error(write("negthreads.json", head + R"("threads": -3, "cost": [{"context": 0,
    "curve": [[1, 1.0]]}]})"),
               "threads -3 (must be at least 1)");
  expect_error(write("decreasing.json", head + R"("threads": 2, "cost": [{"context": 256,
    "curve": [[1, 1.0], [2, 1.1], [4, 0.4]]}, {"context": 1024, "curve": [[1, 1.0], [8, 2.5]]}]})"),
               "must not decrease");
  expect_error(write("negcontext.json", head + R"("threads": 2, "cost": [{"context": -5,
    "curve": [[1, 1.0]]}]})"),
               "corrupt");
  expect_error(write("batchone.json", head + R"("threads": 2, "cost": [{"context": 256,
    "curve": [[1, 1.0]]}], "batch_cost": {"context": 256, "curves": [{"sequences": 1,
    "curve": [[1, 1.0]]}]}})"),
               "sequences >= 2");
  const std::string refiner_head = head + R"("threads": 2, "cost": [{"context": 256,
    "curve": [[1, 1.0]]}], "refiner": )";
  const std::string tree_head = "{\"features\": " + std::to_string(kRefinerFeatures) +
                                ", \"depth\": " + std::to_string(kRefinerTreeDepth) +
                                ", \"base\": 0, \"trees\": [";
  const std::string good_tree = R"({"feature": [0, 1, 2, -1, 4, 5, 6],
    "threshold": [0, 0, 0, 0, 0, 0, 0], "leaf": [0, 0, 0, 0, 0, 0, 0, 0]})";
  // Another build's refiner (other features, a logistic model, trees of another depth): the
  // profile stands without it, and says so.
  for (const std::string& outdated :
       {std::string(R"({"features": 5, "depth": 3, "base": 0, "trees": []})"),
        std::string(R"({"features": 37, "mean": [], "scale": [], "weights": [], "bias": 0})"),
        "{\"features\": " + std::to_string(kRefinerFeatures) +
            ", \"depth\": 9, \"base\": 0, \"trees\": []}"}) {
    const Profile old = load_profile(write("outdated.json", refiner_head + outdated + "}"));
    EXPECT_TRUE(old.refiner_outdated) << outdated;
    EXPECT_TRUE(old.refiner.empty());
  }
  std::string bad_feature = good_tree;
  bad_feature.replace(bad_feature.find("[0, 1"), 2, "[99");
  expect_error(write("refinerindex.json", refiner_head + tree_head + bad_feature + "]}}"),
               "splits on feature 99");
  std::string short_leaf = good_tree;
  short_leaf.replace(short_leaf.find("[0, 0, 0, 0, 0, 0, 0, 0]"), 24, "[0]");
  expect_error(write("refinershort.json", refiner_head + tree_head + short_leaf + "]}}"),
               "wrong size");
  std::string huge = good_tree;
  huge.replace(huge.find("\"threshold\": [0"), 15, "\"threshold\": [1e90");
  expect_error(write("refinerhuge.json", refiner_head + tree_head + huge + "]}}"), "finite");
  std::string fraction = good_tree;
  fraction.replace(fraction.find("[0, 1"), 2, "[0.5");
  expect_error(write("refinerfraction.json", refiner_head + tree_head + fraction + "]}}"),
               "must be an integer");
  expect_error(write("refinernull.json", refiner_head + tree_head + R"({"feature": null}]}})"),
               "corrupt");
  expect_error(write("batchk.json", head + R"("threads": 2, "cost": [{"context": 256,
    "curve": [[1, 1.0]]}], "batch_cost": {"context": 256, "curves": [{"sequences": 4,
    "curve": [[2, 2.0]]}]}})"),
               "corrupt");
}

}  // namespace
}  // namespace reader
