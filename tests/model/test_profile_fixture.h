// Profiles for model tests: a fixed cost curve (no timing enters a test) and chosen
// acceptance priors, so what the drafter decides to verify is deterministic.
#pragma once

#include <filesystem>
#include <thread>

#include "reader/model.h"
#include "reader/profile.h"

namespace reader::test {

// `accept_rate` < 0: no calibration counts (the drafter's cautious defaults); otherwise
// every kind of node was accepted at this rate over `evidence` calibration tries.
inline Profile fixed_profile(const Model& m, double accept_rate, double evidence = 200) {
  Profile p;
  stamp_cost_for(p, m);  // the fixed curve below counts as measured here
  // An AMD EPYC's curve at 1024 cached tokens before the patched kernels (issue 8's text).
  p.cost = CostModel(
      {{1024,
        CostCurve(
            {{1, 1.0}, {2, 1.17}, {4, 1.46}, {8, 1.93}, {16, 3.11}, {32, 4.94}, {64, 9.45}})}});
  if (accept_rate >= 0)
    for (int cell = 0; cell < AcceptanceCounts::kCells; ++cell)
      p.acceptance.set(cell, accept_rate * evidence, evidence);
  return p;
}

// The acceptance this project calibrated for SmolLM2 (`reader tune`, committed under
// docs/results/tune/), with the fixed cost curve above and a fixed batch table: what
// `reader generate` drafts with after setup, minus the timing. Model tests of drafting use it.
inline Profile calibrated_profile(const Model& m) {
  Profile p = fixed_profile(m, -1);
  const Profile tuned = load_profile(std::filesystem::path(READER_SOURCE_DIR) / "docs" / "results" /
                                     "tune" / "SmolLM2-135M-Instruct.Q8_0.profile.json");
  p.acceptance = tuned.acceptance;
  p.refiner = tuned.refiner;  // fitted to these counts (reader tune --refiner-only)
  p.refiner_sampled = tuned.refiner_sampled;
  // A batch table (the Zen 5 host's, `reader tune`), so batched tests price their passes the
  // way a tuned engine does.
  p.cost.set_batch(256, {{2, CostCurve({{1, 1.34}, {2, 1.82}, {3, 2.25}, {4, 2.25}})},
                         {4, CostCurve({{1, 2.02}, {2, 2.39}, {3, 2.79}, {4, 2.79}})},
                         {8, CostCurve({{1, 2.78}, {2, 3.17}, {3, 4.20}, {4, 5.05}})}});
  return p;
}

}  // namespace reader::test
