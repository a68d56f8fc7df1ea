#include "reader/tree_policy.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace reader {

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
