// StepCostRecord: what multi-token steps cost as they ran, raising the cost curve by it.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "reader/tree_policy.h"

namespace reader {
namespace {

const CostCurve kCurve({{1, 1.0}, {2, 1.2}, {4, 1.3}, {8, 1.6}, {16, 3.1}});

void warm_up(StepCostRecord& r, double one_token_ms) {
  for (int i = 0; i < 8; ++i) r.record(1, one_token_ms, 1.0);
}

TEST(StepCostRecordTest, UnmeasuredLeavesTheCurveAlone) {
  StepCostRecord r;
  EXPECT_EQ(r.factor(), 1.0);
  r.record(8, 50.0, kCurve(8));  // before any one-token step: nothing to compare with
  warm_up(r, 1.0);
  EXPECT_EQ(r.factor(), 1.0);  // no multi-token step counted yet
  r.record(2, -1.0, kCurve(2));
  r.record(2, std::nan(""), kCurve(2));
  r.record(0, 1.0, 1.0);
  EXPECT_EQ(r.factor(), 1.0);
  EXPECT_EQ(r.raise(kCurve).points(), kCurve.points());
}

TEST(StepCostRecordTest, StepsThatCostWhatWasPricedChangeNothing) {
  std::mt19937 rng(7);
  StepCostRecord r;
  warm_up(r, 1.14);
  std::uniform_int_distribution<int> size(2, 16);
  for (int i = 0; i < 200; ++i) {
    const int n = size(rng);
    r.record(n, kCurve(n) * 1.14, kCurve(n));
    if (i % 3 == 0) r.record(1, 1.14, 1.0);
  }
  EXPECT_NEAR(r.factor(), 1.0, 1e-9);
}

// Randomized: steps dearer than priced by a constant factor F of the excess, amid noise-free
// one-token steps; the record finds F, and the raised curve is the curve with its excess x F.
TEST(StepCostRecordTest, FindsAConstantExcessFactorAndRaisesByIt) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 50; ++trial) {
    const double f = std::uniform_real_distribution<double>(1.0, 3.0)(rng);
    const double t1 = std::uniform_real_distribution<double>(0.5, 20.0)(rng);
    StepCostRecord r;
    warm_up(r, t1);
    std::uniform_int_distribution<int> size(2, 17);
    for (int i = 0; i < 30; ++i) {
      const int n = size(rng);
      r.record(n, (1 + f * (kCurve(n) - 1)) * t1, kCurve(n));
      if (i % 2) r.record(1, t1, 1.0);  // fades both sums alike: the factor stays
    }
    ASSERT_NEAR(r.factor(), f, 1e-9 * f);
    const CostCurve raised = r.raise(kCurve);
    double last = 0;
    for (int n = 1; n <= 40; ++n) {
      ASSERT_NEAR(raised(n), 1 + f * (kCurve(n) - 1), 1e-9 * f * n) << "n " << n;
      ASSERT_GE(raised(n), kCurve(n) - 1e-12);
      ASSERT_GE(raised(n), last);
      last = raised(n);
    }
  }
}

TEST(StepCostRecordTest, CheaperStepsNeverLowerTheCurve) {
  StepCostRecord r;
  warm_up(r, 2.0);
  for (int i = 0; i < 20; ++i) r.record(8, 2.0, kCurve(8));  // as cheap as one token
  EXPECT_EQ(r.factor(), 1.0);
}

TEST(StepCostRecordTest, RecentStepsOutweighOldOnes) {
  StepCostRecord r;
  warm_up(r, 1.0);
  for (int i = 0; i < 30; ++i) r.record(8, 1 + 2.5 * (kCurve(8) - 1), kCurve(8));
  const double dear = r.factor();
  for (int i = 0; i < 60; ++i) r.record(8, kCurve(8), kCurve(8));
  EXPECT_NEAR(dear, 2.5, 1e-9);
  EXPECT_LT(r.factor(), 1.2);
}

TEST(StepCostRecordTest, AColdStepCountsAtMostThriceItsPrice) {
  StepCostRecord r;
  warm_up(r, 1.0);
  for (int i = 0; i < 5; ++i) r.record(17, 40.0, kCurve(17));  // a graph captured each time
  EXPECT_NEAR(r.factor(), 3.0, 1e-9);
}

TEST(StepCostRecordTest, ALongStretchWithoutDraftsForgets) {
  StepCostRecord r;
  warm_up(r, 1.0);
  for (int i = 0; i < 5; ++i) r.record(17, 40.0, kCurve(17));
  ASSERT_GT(r.factor(), 1.0);
  for (int i = 0; i < 2000; ++i) r.record(1, 1.0, 1.0);
  EXPECT_EQ(r.factor(), 1.0);  // too little evidence left: the curve again
}

}  // namespace
}  // namespace reader
