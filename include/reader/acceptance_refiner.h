// AcceptanceRefiner: a second opinion on each candidate node's acceptance estimate, from what
// the estimate's kind cannot see. The per-kind rates (tree_policy.h) are calibrated, but they
// tell continuations apart only by who drafted them and with how much evidence; most of the
// tokens the policy loses are a right branch cut short (docs/results/issue8/session44). How
// often this very text has followed the node's last 1-4 tokens with its token, the node's
// place among its siblings, and how many tokens this text's steps have been committing say more.
// A logistic model over those and the estimate itself, fitted by `reader tune` to the
// candidates of calibration prompts judged against the text the model wrote, replaces the
// estimate the policy weighs (never what the acceptance model learns from).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "reader/draft_tree.h"
#include "reader/tokens.h"
#include "reader/trie.h"

namespace reader {

inline constexpr int kRefinerFeatures = 37;
using RefinerFeatures = std::array<float, kRefinerFeatures>;

// What a text has shown so far that bears on every node: the mean tokens its steps committed.
struct TextPace {
  double mean_committed = 2.0;  // exponentially weighted (0.8 old, 0.2 new), from 2 at the start
  void add_step(int committed) { mean_committed = 0.8 * mean_committed + 0.2 * committed; }
};

// Features of every node of `tree` (index 0, the root, left zero). `q[i]`: node i's estimate
// as the policy weighs it (conditional on its parent); `context`: committed tokens ending with
// the root; `text`: the trie of this text (prompt and output so far), which counts its
// n-grams. The order and meaning of each entry is listed in acceptance_refiner.cpp.
std::vector<RefinerFeatures> refiner_features(const DraftTree& tree, const std::vector<double>& q,
                                              TokenSpan context, const ShortTermTrie& text,
                                              const TextPace& pace);

// A fitted logistic model: q' = sigmoid(bias + sum_j weight_j (x_j - mean_j) / scale_j).
struct AcceptanceRefiner {
  std::vector<double> mean;     // per feature, of the training samples
  std::vector<double> scale;    // per feature: standard deviation (1 where constant)
  std::vector<double> weights;  // per standardized feature
  double bias = 0;
  std::int64_t samples = 0;     // training samples it was fitted to
  double base_log_loss = 0;     // log loss of the estimates alone on held-out samples
  double refined_log_loss = 0;  // log loss of the refined estimates on the same samples
  bool empty() const { return weights.empty(); }
  double refine(const RefinerFeatures& x) const;  // requires !empty()
  // Throws std::invalid_argument unless sizes are kRefinerFeatures and values finite.
  void validate() const;
};

// One candidate node with its verdict: accepted where its parent was.
struct RefinerSample {
  RefinerFeatures x{};
  bool accepted = false;
};

// Logistic regression by Newton's method with an L2 penalty `l2` on the standardized weights.
// The estimate's own log loss (feature 0 is its logit) and the fit's are measured on every
// fifth sample, held out of a first fit; the returned model is then fitted to all of them.
// Throws std::invalid_argument with fewer than 100 samples or only one verdict among them.
AcceptanceRefiner fit_refiner(const std::vector<RefinerSample>& samples, double l2 = 1.0);

// Collects samples during ordinary generation (`reader tune`): each step's candidates and
// features, judged when the text is finished, since a candidate the policy did not verify is
// judged by the text the model wrote all the same (greedy, or sampled with coupled draws).
class RefinerCollector {
 public:
  // One step: `root_position` is the root's index in prompt ++ output.
  void step(int root_position, const DraftTree& tree, std::vector<RefinerFeatures> features);
  // Judges the steps since the last finish against the finished text.
  void finish(TokenSpan prompt, TokenSpan output);
  // Drops the steps of a text that will not finish (a new text begins).
  void discard() { pending_.clear(); }
  const std::vector<RefinerSample>& samples() const { return samples_; }

 private:
  struct Step {
    int root_position = 0;
    std::vector<int> parents;  // per node (root: -1)
    Tokens tokens;             // per node
    std::vector<RefinerFeatures> features;
  };
  std::vector<Step> pending_;  // steps of the text in progress
  std::vector<RefinerSample> samples_;
};

}  // namespace reader
