// The logit of an acceptance estimate and its inverse, as the drafter's recalibration
// (acceptance.cpp) and the refiner of the estimates (acceptance_refiner.cpp) take them: q is
// clamped to [1e-4, 1 - 1e-4], so an estimate of 0 or 1 stays finite and can still move.
#pragma once

#include <algorithm>
#include <cmath>

namespace reader {

inline double logit(double q) {
  q = std::clamp(q, 1e-4, 1.0 - 1e-4);
  return std::log(q / (1.0 - q));
}

inline double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

}  // namespace reader
