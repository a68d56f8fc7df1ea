// Tree policy: which draft nodes are worth verifying on this machine (paper, Theorem 1).
//
// A tree T is worth (1 + sum of alpha_i) accepted tokens per verification, where alpha_i
// is the probability that node i's whole prefix is accepted, and costs c(|T|) single-token
// decodes, from the cost curve measured here. Because alpha never grows from parent to
// child, taking nodes in decreasing alpha keeps every prefix a valid tree, and the best
// tree is the best such prefix. alpha_i is the product of conditional acceptance rates
// q(node | parent accepted), learned online per kind of node.
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "reader/draft_tree.h"

namespace reader {

// c(n): time of one decode of n tokens over time of a decode of 1 token.
class CostCurve {
 public:
  explicit CostCurve(std::vector<std::pair<int, double>> points);  // sorted by n, n >= 1
  double operator()(int n) const;  // piecewise linear, extrapolated linearly
  const std::vector<std::pair<int, double>>& points() const { return points_; }

 private:
  std::vector<std::pair<int, double>> points_;
};
// Measured here (reader bench --cost-curve, SmolLM2 Q8_0, 2 threads, README).
CostCurve default_cost_curve();

// What a node's acceptance depends on: who drafted it and with how much evidence.
struct NodeKind {
  DraftSource source = DraftSource::kSpeculator;  // speculator, widening or deepening
  int feature = 0;   // speculator: template node; retrieval: match length (<= 15)
  int strength = 0;  // retrieval: share of its level's counts, 0..3 buckets; speculator: 0
};

// Conditional acceptance rates q(kind), as Beta-smoothed online frequencies.
class AcceptanceModel {
 public:
  double estimate(const NodeKind& kind) const;
  void record(const NodeKind& kind, bool accepted);
  std::uint64_t observations() const { return observations_; }

 private:
  static int index(const NodeKind& kind);
  static double prior(const NodeKind& kind);
  static constexpr int kCells = 3 * 64 * 4;
  std::array<float, kCells> accepted_{};  // accepted count per cell
  std::array<float, kCells> tried_{};     // tries (parent accepted) per cell
  std::uint64_t observations_ = 0;
};

// Nodes of `tree` (by index, root first) forming the tree that maximizes expected accepted
// tokens per unit of verification cost; `q[i]` is node i's conditional acceptance rate.
std::vector<int> best_subtree(const DraftTree& tree, const std::vector<double>& q,
                              const CostCurve& cost);

// The same objective over single root-to-node paths: the path (root first) maximizing
// (1 + sum of alpha) / c(length). A path is what llama.cpp's CPU kernels verify bit for
// bit like one-token decodes (README, "Losslessness and rounding").
std::vector<int> best_path(const DraftTree& tree, const std::vector<double>& q,
                           const CostCurve& cost);

// `tree` restricted to `keep` (which must contain every kept node's parent).
DraftTree restrict_tree(const DraftTree& tree, const std::vector<int>& keep);

}  // namespace reader
