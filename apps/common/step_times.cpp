#include "step_times.h"

#include <algorithm>

namespace reader {

void StepTimes::add(const GenerationStats& stats) {
  const size_t sizes = std::min(stats.verified_histogram.size(), stats.verify_ms_by_size.size());
  if (ms_.size() < sizes) {
    ms_.resize(sizes, 0.0);
    steps_.resize(sizes, 0);
  }
  for (size_t n = 0; n < sizes; ++n) {
    ms_[n] += stats.verify_ms_by_size[n];
    steps_[n] += stats.verified_histogram[n];
  }
}

int StepTimes::steps(int tokens) const {
  return tokens >= 0 && static_cast<size_t>(tokens) < steps_.size()
             ? steps_[static_cast<size_t>(tokens)]
             : 0;
}

double StepTimes::mean_ms(int tokens) const {
  const int n = steps(tokens);
  return n > 0 ? ms_[static_cast<size_t>(tokens)] / n : 0.0;
}

std::vector<std::pair<int, double>> StepTimes::relative_to(double base_ms, int min_steps) const {
  std::vector<std::pair<int, double>> out;
  if (base_ms <= 0) return out;
  for (int n = 1; n < static_cast<int>(steps_.size()); ++n)
    if (steps(n) > 0 && steps(n) >= min_steps) out.emplace_back(n, mean_ms(n) / base_ms);
  return out;
}

CostCurve StepTimes::curve_against(const StepTimes& ar) const {
  std::vector<std::pair<int, double>> points = {{1, 1.0}};
  for (const auto& [n, c] : relative_to(ar.mean_ms(1), kEnoughSteps))
    if (n >= 2) points.emplace_back(n, std::max(points.back().second, c));
  return CostCurve(std::move(points));
}

}  // namespace reader
