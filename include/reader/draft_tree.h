// DraftTree: what the drafters hand the verifier. A tree as a parents array.
//
// Node 0 is the root: the last committed token, which the model has not yet seen (it
// was emitted by the previous verification). Every other node is a drafted
// continuation of its parent. Nodes are stored parents-first, so index order is a
// valid evaluation order and depth(i) = depth(parent(i)) + 1.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "reader/generate.h"
#include "reader/tokens.h"

namespace reader {

class DraftTree {
 public:
  // A tree holding only the root; at most `budget` nodes including the root.
  DraftTree(Token root, int budget);

  // Adds `token` under `parent`, or returns the existing child with that token (a
  // token present as a sibling is never duplicated). Returns -1 when the tree is full.
  int add(int parent, Token token, DraftSource source, float score = 0.0f);
  // Adds a chain below `parent`; returns how many tokens were new.
  int add_path(int parent, TokenSpan path, DraftSource source);
  int find_child(int parent, Token token) const;

  int size() const { return static_cast<int>(tokens_.size()); }
  int budget() const { return budget_; }
  bool full() const { return size() >= budget_; }
  Token token(int i) const { return tokens_[static_cast<size_t>(i)]; }
  int parent(int i) const { return parents_[static_cast<size_t>(i)]; }
  int depth(int i) const { return depths_[static_cast<size_t>(i)]; }
  DraftSource source(int i) const { return sources_[static_cast<size_t>(i)]; }
  float score(int i) const { return scores_[static_cast<size_t>(i)]; }
  // The drafter's final estimate that node i's whole path is accepted (alpha, Theorem 1):
  // the engine's batch policy trims drafts by it.
  void set_score(int i, float score) { scores_[static_cast<size_t>(i)] = score; }
  const Tokens& tokens() const { return tokens_; }
  const std::vector<int>& parents() const { return parents_; }
  int max_depth() const;
  int first_child(int node) const;  // earliest-added child (the drafter's best), or -1
  int next_sibling(int node) const { return next_sibling_[static_cast<size_t>(node)]; }  // or -1
  // Drafted tokens from just below the root down to `node`.
  Tokens path_to(int node) const;
  std::vector<int> leaves() const;  // nodes without children, in index order

  // Throws std::logic_error if an invariant is broken (parents-first order, depths,
  // sibling uniqueness, budget). Tests call it.
  void check_integrity() const;

 private:
  int budget_;
  Tokens tokens_;                     // token per node; [0] is the root
  std::vector<int> parents_;          // parent index; -1 for the root
  std::vector<int> depths_;           // distance from the root
  std::vector<DraftSource> sources_;  // who proposed the node
  std::vector<float> scores_;         // drafter's estimate of acceptance (for ordering)
  std::vector<int> first_child_;      // first child index or -1
  std::vector<int> next_sibling_;     // next sibling index or -1 (insertion order)
};

// Adds a tree given as a parents array (SuffixDecoding's Draft) below `parent`: entry i
// holds tokens[i] under entry parents[i] (-1: directly under `parent`), parents first, with
// score scores[i] (0 when `scores` is empty). An entry is dropped, with its descendants,
// when the tree is full or when it would make the tree's leaves below the root exceed
// `max_leaves` (the verifier's branch sequences). Returns each entry's node (-1: dropped).
// Throws std::invalid_argument when the arrays disagree in length or an entry's parent
// does not precede it.
std::vector<int> add_parents_array(DraftTree& tree, int parent, TokenSpan tokens,
                                   std::span<const int> parents, std::span<const float> scores,
                                   DraftSource source, int max_leaves);

}  // namespace reader
