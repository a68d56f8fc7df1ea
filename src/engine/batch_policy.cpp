#include "engine/batch_policy.h"

#include <algorithm>
#include <utility>

namespace reader {

std::vector<int> trim_drafts(const std::vector<std::vector<double>>& alphas, int fixed_tokens,
                             const CostCurve& cost) {
  const auto n_seq = static_cast<int>(alphas.size());
  // Every draft token with the alpha it would be kept at (clamped non-increasing per chain,
  // so sorting never puts a child before its parent).
  std::vector<std::pair<double, int>> nodes;  // (alpha, sequence)
  for (int s = 0; s < n_seq; ++s) {
    double running = 1.0;
    for (double a : alphas[static_cast<size_t>(s)]) {
      running = std::min(running, std::max(0.0, a));
      nodes.emplace_back(running, s);
    }
  }
  std::stable_sort(nodes.begin(), nodes.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  const int base = fixed_tokens + n_seq;  // every decoding sequence sends its root
  double gain = n_seq;
  double best_value = base > 0 ? gain / cost(base) : 0.0;
  size_t best_count = 0;
  for (size_t m = 0; m < nodes.size(); ++m) {
    gain += nodes[m].first;
    const double value = gain / cost(base + static_cast<int>(m) + 1);
    if (value > best_value) {
      best_value = value;
      best_count = m + 1;
    }
  }
  std::vector<int> keep(static_cast<size_t>(n_seq), 0);
  for (size_t m = 0; m < best_count; ++m) keep[static_cast<size_t>(nodes[m].second)]++;
  return keep;
}

}  // namespace reader
