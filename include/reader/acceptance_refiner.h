// AcceptanceRefiner: a second opinion on each candidate node's acceptance estimate, from what
// the estimate's kind cannot see. The per-kind rates (tree_policy.h) are calibrated, but they
// tell continuations apart only by who drafted them and with how much evidence; most of the
// tokens the policy loses are a right branch cut short (docs/results/issue8/session44). How
// often this very text has followed the node's last 1-4 tokens with its token, the node's
// place among its siblings, how many tokens this text's steps have been committing, and what
// kind of text the token and its parent are (a word's start or its rest, punctuation, a line's
// end) say more. Gradient-boosted regression trees over those and the estimate itself, fitted by
// `reader tune` to the candidates of calibration prompts judged against the text the model
// wrote, replace the estimate the policy weighs (never what the acceptance model learns from).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "reader/draft_tree.h"
#include "reader/tokens.h"
#include "reader/trie.h"

namespace reader {

inline constexpr int kRefinerFeatures = 49;
using RefinerFeatures = std::array<float, kRefinerFeatures>;

// What kind of text a token is, a bit per class (kTokenClasses of them): a word's start (a
// space, then a letter), a word's continuation (a letter first), punctuation only, a sentence's
// end (., !, ?, :), a newline, a digit. Computed from the token's bytes.
inline constexpr int kTokenClasses = 6;
std::uint8_t token_class(std::string_view bytes);
// A token's class bits, or null where the model's text is unknown (all classes 0).
using TokenClassOf = std::function<std::uint8_t(Token)>;

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
                                              const TextPace& pace,
                                              const TokenClassOf& class_of = nullptr);

// One regression tree of depth kRefinerTreeDepth, complete, in heap order: inner node i sends x
// to child 2i + 1 when x[feature[i]] < threshold[i] (or feature[i] is -1: no split), else to
// 2i + 2; the leaves follow the inner nodes, and leaf[k] is added to the margin.
inline constexpr int kRefinerTreeDepth = 3;
inline constexpr int kRefinerTreeInner = (1 << kRefinerTreeDepth) - 1;
struct RefinerTree {
  std::array<std::int32_t, kRefinerTreeInner> feature{};  // per inner node, -1: all go left
  std::array<float, kRefinerTreeInner> threshold{};       // per inner node
  std::array<float, 1 << kRefinerTreeDepth> leaf{};       // per leaf: its margin
  // The leaf x reaches.
  int leaf_of(const RefinerFeatures& x) const {
    int i = 0;
    for (int d = 0; d < kRefinerTreeDepth; ++d) {
      const auto u = static_cast<size_t>(i);
      i = 2 * i + 1 + (feature[u] >= 0 && !(x[static_cast<size_t>(feature[u])] < threshold[u]));
    }
    return i - kRefinerTreeInner;
  }
};

// A fitted model: q' = sigmoid(base + the sum of every tree's leaf for x).
struct AcceptanceRefiner {
  double base = 0;                 // the margin before any tree: the training verdicts' logit
  std::vector<RefinerTree> trees;  // in the order they were fitted
  std::int64_t samples = 0;        // training samples it was fitted to (0: none, an empty model)
  double base_log_loss = 0;        // log loss of the estimates alone on held-out samples
  double refined_log_loss = 0;     // log loss of the refined estimates on the same samples
  bool empty() const { return samples == 0 && trees.empty(); }
  double refine(const RefinerFeatures& x) const;
  // Throws std::invalid_argument unless every feature index is one of kRefinerFeatures (or
  // -1) and every number finite.
  void validate() const;
};

// How `fit_refiner` grows its trees.
struct BoostingOptions {
  int trees = 150;                // boosting rounds, a tree each
  double learning_rate = 0.1;     // each tree's leaves are shrunk by it
  double l2 = 1.0;                // penalty on the leaves' margins (lambda)
  double min_child_weight = 5.0;  // least hessian (sum of p(1 - p)) on each side of a split
  int bins = 64;                  // candidate thresholds per feature, at quantiles
};

// One candidate node with its verdict: accepted where its parent was.
struct RefinerSample {
  RefinerFeatures x{};
  bool accepted = false;
};

// Gradient boosting of the log loss, as XGBoost's histogram method with these options, from
// the verdicts' logit: deterministic. The estimate's own log loss (feature 0 is its logit) and
// the fit's are measured on every fifth sample, held out of a first fit; the returned model is
// then fitted to all of them. Throws std::invalid_argument with fewer than 100 samples or only
// one verdict among them.
AcceptanceRefiner fit_refiner(const std::vector<RefinerSample>& samples,
                              const BoostingOptions& options = {});

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
