#include "engine/batch_policy.h"

#include <algorithm>
#include <utility>

namespace reader {

double split_step_cost(std::vector<int> lengths, const PassCost& cost) {
  std::sort(lengths.begin(), lengths.end());
  double total = 0;
  int done = 0;  // tokens per sequence already sent in earlier passes
  for (size_t i = 0; i < lengths.size(); ++i) {
    if (lengths[i] <= done) continue;
    const int still = static_cast<int>(lengths.size() - i);  // sequences with more to send
    total += cost(still, lengths[i] - done);
    done = lengths[i];
  }
  return total;
}

std::vector<int> trim_drafts(const std::vector<std::vector<double>>& alphas,
                             const std::vector<int>& prefill, const PassCost& cost) {
  const size_t n_seq = alphas.size();
  // Alpha clamped non-increasing along each chain, so any prefix by alpha is a valid draft.
  std::vector<std::vector<double>> a(n_seq);
  std::vector<std::pair<double, size_t>> nodes;  // (alpha, sequence)
  size_t longest = 0;
  for (size_t s = 0; s < n_seq; ++s) {
    double running = 1.0;
    for (double x : alphas[s]) {
      running = std::min(running, std::max(0.0, x));
      a[s].push_back(running);
      nodes.emplace_back(running, s);
    }
    longest = std::max(longest, a[s].size());
  }
  const auto value = [&](const std::vector<int>& keep) {
    double gain = 0;
    std::vector<int> lengths = prefill;
    for (size_t s = 0; s < n_seq; ++s) {
      gain += 1.0;
      for (int i = 0; i < keep[s]; ++i) gain += a[s][static_cast<size_t>(i)];
      lengths.push_back(keep[s] + 1);
    }
    return gain / split_step_cost(std::move(lengths), cost);
  };
  std::vector<int> best(n_seq, 0);
  double best_value = value(best);
  // Candidates 1: a common cap on draft length (even drafts share their passes).
  std::vector<int> keep(n_seq);
  for (size_t cap = 1; cap <= longest; ++cap) {
    for (size_t s = 0; s < n_seq; ++s) keep[s] = static_cast<int>(std::min(cap, a[s].size()));
    if (const double v = value(keep); v > best_value) best_value = v, best = keep;
  }
  // Candidates 2: the most likely tokens first, whatever sequence they belong to.
  std::stable_sort(nodes.begin(), nodes.end(),
                   [](const auto& x, const auto& y) { return x.first > y.first; });
  std::fill(keep.begin(), keep.end(), 0);
  for (const auto& [alpha, s] : nodes) {
    keep[s]++;
    if (const double v = value(keep); v > best_value) best_value = v, best = keep;
  }
  return best;
}

}  // namespace reader
