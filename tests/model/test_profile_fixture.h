// Profiles for model tests: a fixed cost curve (no timing enters a test) and chosen
// acceptance priors, so what the drafter decides to verify is deterministic.
#pragma once

#include <thread>

#include "reader/model.h"
#include "reader/profile.h"

namespace reader::test {

// `accept_rate` < 0: no calibration counts (the drafter's cautious defaults); otherwise
// every kind of node was accepted at this rate over `evidence` calibration tries.
inline Profile fixed_profile(const Model& m, double accept_rate, double evidence = 200) {
  Profile p;
  p.model = m.description();
  p.tokenizer = m.tokenizer_fingerprint();
  p.machine = machine_key();
  p.threads = m.options().n_threads > 0
                  ? m.options().n_threads
                  : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  // This machine's measured curve at 1024 cached tokens (README, "Tree sizes").
  p.cost = CostModel(
      {{1024,
        CostCurve(
            {{1, 1.0}, {2, 1.17}, {4, 1.46}, {8, 1.93}, {16, 3.11}, {32, 4.94}, {64, 9.45}})}});
  if (accept_rate >= 0)
    for (int cell = 0; cell < AcceptanceCounts::kCells; ++cell)
      p.acceptance.set(cell, accept_rate * evidence, evidence);
  return p;
}

}  // namespace reader::test
