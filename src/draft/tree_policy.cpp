#include "reader/tree_policy.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace reader {

CostCurve::CostCurve(std::vector<std::pair<int, double>> points) : points_(std::move(points)) {
  if (points_.empty() || points_.front().first != 1)
    throw std::invalid_argument("cost curve must start at n = 1");
  for (size_t i = 1; i < points_.size(); ++i)
    if (points_[i].first <= points_[i - 1].first)
      throw std::invalid_argument("cost curve must be sorted by n");
}

double CostCurve::operator()(int n) const {
  if (n <= points_.front().first) return points_.front().second;
  for (size_t i = 1; i < points_.size(); ++i) {
    if (n <= points_[i].first) {
      const auto [n0, c0] = points_[i - 1];
      const auto [n1, c1] = points_[i];
      return c0 + (c1 - c0) * (n - n0) / static_cast<double>(n1 - n0);
    }
  }
  if (points_.size() == 1) return points_[0].second * n;
  const auto [n0, c0] = points_[points_.size() - 2];
  const auto [n1, c1] = points_.back();
  return c1 + (c1 - c0) * (n - n1) / static_cast<double>(n1 - n0);
}

CostCurve default_cost_curve() {
  // reader bench --cost-curve on this machine: SmolLM2-135M requantized to Q8_0, llama.cpp
  // with the sgemm-for-every-batch patch, 2 threads, 512 cached tokens, medians of 7 runs.
  return CostCurve({{1, 1.0}, {2, 1.19}, {4, 1.66}, {8, 2.73}, {16, 4.58}, {32, 9.19}, {64, 16.2}});
}

int AcceptanceModel::index(const NodeKind& k) {
  const int src = k.source == DraftSource::kSpeculator ? 0
                  : k.source == DraftSource::kWidening ? 1
                                                       : 2;
  return (src * 64 + std::clamp(k.feature, 0, 63)) * 4 + std::clamp(k.strength, 0, 3);
}

double AcceptanceModel::prior(const NodeKind& k) {
  if (k.source == DraftSource::kSpeculator) return k.feature == 0 ? 0.35 : 0.15;
  // Retrieval: longer matches and more unanimous counts predict verbatim copies.
  return std::min(0.9, 0.15 + 0.08 * k.feature + 0.1 * k.strength);
}

double AcceptanceModel::estimate(const NodeKind& kind) const {
  constexpr double kPriorWeight = 4.0;
  const auto i = static_cast<size_t>(index(kind));
  const double mean = (accepted_[i] + kPriorWeight * prior(kind)) / (tried_[i] + kPriorWeight);
  // Optimism for kinds rarely tried: a node pruned for a pessimistic estimate would never be
  // verified, so its estimate would never improve (an upper confidence bound).
  return std::min(1.0, mean + 0.2 / std::sqrt(1.0 + tried_[i]));
}

void AcceptanceModel::record(const NodeKind& kind, bool accepted) {
  const auto i = static_cast<size_t>(index(kind));
  // Exponential forgetting keeps the estimate following the current text.
  constexpr float kDecay = 0.995f;
  accepted_[i] = accepted_[i] * kDecay + (accepted ? 1.0f : 0.0f);
  tried_[i] = tried_[i] * kDecay + 1.0f;
  ++observations_;
}

namespace {
// alpha_i: probability that node i and all its ancestors are accepted (root: 1).
std::vector<double> path_acceptance(const DraftTree& tree, const std::vector<double>& q) {
  std::vector<double> alpha(static_cast<size_t>(tree.size()), 1.0);
  for (int i = 1; i < tree.size(); ++i)  // parents come before children
    alpha[static_cast<size_t>(i)] =
        alpha[static_cast<size_t>(tree.parent(i))] * q[static_cast<size_t>(i)];
  return alpha;
}
}  // namespace

std::vector<int> best_subtree(const DraftTree& tree, const std::vector<double>& q,
                              const CostCurve& cost) {
  const int n = tree.size();
  const std::vector<double> alpha = path_acceptance(tree, q);
  std::vector<int> order(static_cast<size_t>(n - 1));
  std::iota(order.begin(), order.end(), 1);
  // alpha desc, then index asc: a parent (smaller index, alpha >= child's) always comes first.
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return alpha[static_cast<size_t>(a)] > alpha[static_cast<size_t>(b)];
  });
  double expected = 1.0, best_value = 1.0 / cost(1);
  size_t best_count = 0;
  for (size_t k = 0; k < order.size(); ++k) {
    expected += alpha[static_cast<size_t>(order[k])];
    const double value = expected / cost(static_cast<int>(k) + 2);
    if (value > best_value) {
      best_value = value;
      best_count = k + 1;
    }
  }
  std::vector<int> keep = {0};
  keep.insert(keep.end(), order.begin(), order.begin() + static_cast<std::ptrdiff_t>(best_count));
  std::sort(keep.begin(), keep.end());
  return keep;
}

std::vector<int> best_path(const DraftTree& tree, const std::vector<double>& q,
                           const CostCurve& cost) {
  const std::vector<double> alpha = path_acceptance(tree, q);
  // expected[i]: accepted tokens expected from verifying the path root..i, bonus included.
  std::vector<double> expected(alpha.size(), 1.0);
  int best = 0;
  double best_value = 1.0 / cost(1);
  for (int i = 1; i < tree.size(); ++i) {
    const auto p = static_cast<size_t>(tree.parent(i));
    expected[static_cast<size_t>(i)] = expected[p] + alpha[static_cast<size_t>(i)];
    const double value = expected[static_cast<size_t>(i)] / cost(tree.depth(i) + 1);
    if (value > best_value) {
      best_value = value;
      best = i;
    }
  }
  std::vector<int> path;
  for (int i = best; i > 0; i = tree.parent(i)) path.push_back(i);
  path.push_back(0);
  std::reverse(path.begin(), path.end());
  return path;
}

DraftTree restrict_tree(const DraftTree& tree, const std::vector<int>& keep) {
  DraftTree out(tree.token(0), std::max<int>(1, static_cast<int>(keep.size())));
  std::vector<int> new_index(static_cast<size_t>(tree.size()), -1);
  new_index[0] = 0;
  for (int old : keep) {
    if (old == 0) continue;
    const int parent = new_index[static_cast<size_t>(tree.parent(old))];
    if (parent < 0) throw std::logic_error("restrict_tree: a kept node's parent was dropped");
    new_index[static_cast<size_t>(old)] =
        out.add(parent, tree.token(old), tree.source(old), tree.score(old));
  }
  return out;
}

}  // namespace reader
