// ReaderDrafter: speculator tree, then READER's widening and deepening (Algorithm 1),
// then pruning to the tree worth verifying on this machine (Theorem 1).
#include <algorithm>

#include "reader/drafter.h"

namespace reader {
namespace {

// Share of a level's counts the drafted token holds, in 4 buckets.
int strength_bucket(const SearchStep& s) {
  const double share = s.total ? static_cast<double>(s.count) / static_cast<double>(s.total) : 0.0;
  return share < 0.3 ? 0 : share < 0.6 ? 1 : share < 0.9 ? 2 : 3;
}

}  // namespace

ReaderDrafter::ReaderDrafter(TreeShape shape, std::unique_ptr<Speculator> speculator,
                             const NextTokenSource* datastore, bool use_retrieval)
    : shape_(std::move(shape)),
      speculator_(std::move(speculator)),
      datastore_(datastore),
      use_retrieval_(use_retrieval),
      trie_(TrieOptions{std::max(16, shape_.max_suffix_len + 1), 1u << 22}) {
  sources_.push_back(&trie_);
  if (datastore_) sources_.push_back(datastore_);
}

void ReaderDrafter::begin(TokenSpan prompt) {
  trie_.clear();
  trie_.append(prompt);
  if (speculator_) speculator_->begin(prompt);
}

int ReaderDrafter::add_retrieval_path(DraftTree& tree, int parent, TokenSpan context, int depth,
                                      DraftSource source) {
  SearchOptions opts;
  opts.max_suffix_len = shape_.max_suffix_len;
  opts.depth = depth;
  for (const SearchStep& step : search_path_steps(context, opts, sources_)) {
    const int before = tree.size();
    parent = tree.add(parent, step.token, source);
    if (parent < 0) break;
    if (tree.size() > before)
      kinds_.push_back({source, std::min(step.match_len, 15), strength_bucket(step)});
  }
  return parent;
}

DraftTree ReaderDrafter::draft(TokenSpan context, int budget_cap) {
  DraftTree tree(context.back(), std::min(shape_.budget(), budget_cap));
  kinds_.assign(1, NodeKind{});
  if (speculator_) {
    speculator_->draft(context, tree);
    for (int i = 1; i < tree.size(); ++i) {  // kind: depth and rank among siblings
      int rank = 0;
      for (int c = tree.first_child(tree.parent(i)); c != i && c >= 0; c = tree.next_sibling(c))
        ++rank;
      kinds_.push_back(
          {DraftSource::kSpeculator, std::min(tree.depth(i) - 1, 15) * 4 + std::min(rank, 3), 0});
    }
  }
  if (use_retrieval_) {
    // Widening: one deep retrieval path attached at the root.
    if (shape_.d_search > 0 && !tree.full())
      add_retrieval_path(tree, 0, context, shape_.d_search, DraftSource::kWidening);
    // Deepening: extend the speculator's best branch from depth min(deepen_at, its depth).
    if (speculator_ && shape_.d_deep > 0 && !tree.full()) {
      int node = 0;
      for (int next = tree.first_child(0); next > 0 && tree.depth(next) <= shape_.deepen_at &&
                                           tree.source(next) == DraftSource::kSpeculator;
           next = tree.first_child(next))
        node = next;
      if (node > 0) {
        // Only the last max_suffix_len tokens can be matched: copy just those.
        const auto tail = std::min<std::ptrdiff_t>(static_cast<std::ptrdiff_t>(context.size()),
                                                   shape_.max_suffix_len);
        scratch_context_.assign(context.end() - tail, context.end());
        const Tokens prefix = tree.path_to(node);
        scratch_context_.insert(scratch_context_.end(), prefix.begin(), prefix.end());
        add_retrieval_path(tree, node, scratch_context_, shape_.d_deep, DraftSource::kDeepening);
      }
    }
  }
  if (!shape_.adaptive || tree.size() == 1) return tree;

  // Keep only what is worth verifying here (Theorem 1 with the measured cost curve).
  std::vector<double> q(static_cast<size_t>(tree.size()), 1.0);
  for (int i = 1; i < tree.size(); ++i)
    q[static_cast<size_t>(i)] = acceptance_.estimate(kinds_[static_cast<size_t>(i)]);
  const std::vector<int> keep =
      shape_.single_path ? best_path(tree, q, cost_) : best_subtree(tree, q, cost_);
  std::vector<NodeKind> kept_kinds;
  for (int i : keep) kept_kinds.push_back(kinds_[static_cast<size_t>(i)]);
  kinds_ = std::move(kept_kinds);
  return restrict_tree(tree, keep);
}

void ReaderDrafter::feedback(const DraftTree& tree, const std::vector<int>& accepted_nodes) {
  std::vector<char> accepted(static_cast<size_t>(tree.size()), 0);
  for (int n : accepted_nodes) accepted[static_cast<size_t>(n)] = 1;
  for (int i = 1; i < tree.size() && i < static_cast<int>(kinds_.size()); ++i)
    if (accepted[static_cast<size_t>(tree.parent(i))])
      acceptance_.record(kinds_[static_cast<size_t>(i)], accepted[static_cast<size_t>(i)] != 0);
}

void ReaderDrafter::observe(const DraftTree& tree, const NodeLogits& logits) {
  if (speculator_) speculator_->observe(tree, logits);
}

void ReaderDrafter::commit(TokenSpan committed) {
  trie_.append(committed);
  if (speculator_) speculator_->commit(committed);
}

}  // namespace reader
