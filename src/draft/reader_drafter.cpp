// ReaderDrafter: speculator tree, then READER's widening and deepening (Algorithm 1).
#include <algorithm>

#include "reader/drafter.h"

namespace reader {

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

DraftTree ReaderDrafter::draft(TokenSpan context, int budget_cap) {
  DraftTree tree(context.back(), std::min(shape_.budget(), budget_cap));
  if (speculator_) speculator_->draft(context, tree);
  if (!use_retrieval_) return tree;

  // Widening: one deep retrieval path attached at the root.
  SearchOptions opts;
  opts.max_suffix_len = shape_.max_suffix_len;
  if (shape_.d_search > 0 && !tree.full()) {
    opts.depth = shape_.d_search;
    if (shape_.adaptive) {
      // Follow the evidence: a long matched suffix predicts a long verbatim copy.
      const TrieMatch m = trie_.match(context, shape_.max_suffix_len);
      opts.depth = std::clamp(2 * m.length, 1, shape_.d_search);
    }
    tree.add_path(0, search_path(context, opts, sources_), DraftSource::kWidening);
  }

  // Deepening: extend the speculator's best branch from depth min(deepen_at, its depth).
  if (speculator_ && shape_.d_deep > 0 && !tree.full()) {
    int node = 0;
    for (int next = tree.first_child(0); next > 0 && tree.depth(next) <= shape_.deepen_at &&
                                         tree.source(next) == DraftSource::kSpeculator;
         next = tree.first_child(next))
      node = next;
    if (node > 0) {
      scratch_context_.assign(context.begin(), context.end());
      const Tokens prefix = tree.path_to(node);
      scratch_context_.insert(scratch_context_.end(), prefix.begin(), prefix.end());
      opts.depth = shape_.d_deep;
      tree.add_path(node, search_path(scratch_context_, opts, sources_), DraftSource::kDeepening);
    }
  }
  return tree;
}

void ReaderDrafter::observe(const DraftTree& tree, const NodeLogits& logits) {
  if (speculator_) speculator_->observe(tree, logits);
}

void ReaderDrafter::commit(TokenSpan committed) {
  trie_.append(committed);
  if (speculator_) speculator_->commit(committed);
}

}  // namespace reader
