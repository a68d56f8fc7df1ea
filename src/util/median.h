// The median of a sample (mean of the middle two for an even count; 0 for none): what
// benchmarks and the cost probe report, robust to the odd slow run on a noisy machine.
#pragma once

#include <algorithm>
#include <vector>

namespace reader {

inline double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace reader
