// StepTimes: what verification steps cost where they ran, by how many tokens they verified,
// summed over generations. `reader tune` turns it into the in-place cost curve the policy
// uses (cost_in_place); `reader bench` prints it beside its speedups, since the same host
// prices a long step against a one-token one differently from hour to hour (sessions 40 and
// 41 on one VM: 8 tokens 1.53x and 1.45x, same code and choices, speedups 1.77x and 1.90x).
#pragma once

#include <utility>
#include <vector>

#include "reader/generate.h"
#include "reader/tree_policy.h"

namespace reader {

class StepTimes {
 public:
  // Sizes verified fewer times than this are timing noise: tune's curve and bench's record
  // leave them out.
  static constexpr int kEnoughSteps = 10;

  // Adds a generation's steps (GenerationStats::verified_histogram, verify_ms_by_size).
  void add(const GenerationStats& stats);
  int steps(int tokens) const;       // steps that verified `tokens` tokens
  double mean_ms(int tokens) const;  // their mean time (0: none)
  // For each size with at least min_steps steps (and one at least): its mean time over
  // `base_ms` (an autoregressive step's), in size order.
  std::vector<std::pair<int, double>> relative_to(double base_ms, int min_steps) const;
  // These steps as a cost curve against the one-token steps of `ar` (autoregressive decoding of
  // the same prompts): c(1) = 1, then each size of 2 tokens or more seen kEnoughSteps times,
  // kept non-decreasing (timing noise). c(1) = 1 alone where nothing qualifies. `reader tune`
  // makes its in-place curve so; `reader bench --bound` prices the copy oracle so.
  CostCurve curve_against(const StepTimes& ar) const;

 private:
  std::vector<double> ms_;  // [n]: summed time of the steps that verified n tokens
  std::vector<int> steps_;  // [n]: how many there were
};

}  // namespace reader
