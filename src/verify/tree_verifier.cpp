#include <algorithm>
#include <stdexcept>
#include <string>

#include "reader/verify.h"

namespace reader {

bool is_chain(const DraftTree& tree) {
  for (int i = 1; i < tree.size(); ++i)
    if (tree.next_sibling(i) >= 0) return false;
  return true;
}

DraftTree first_child_chain(const DraftTree& tree) {
  DraftTree chain(tree.token(0), std::max(1, tree.max_depth() + 1));
  int at = 0;
  for (int n = tree.first_child(0); n > 0; n = tree.first_child(n))
    at = chain.add(at, tree.token(n), tree.source(n), tree.score(n));
  return chain;
}

TreeLayout layout_tree(const DraftTree& tree, int main_seq, int first_branch_seq) {
  TreeLayout layout;
  layout.seq_ids.assign(static_cast<size_t>(tree.size()), {main_seq});
  if (is_chain(tree)) return layout;
  for (auto& ids : layout.seq_ids) ids.clear();
  layout.seq_ids[0].push_back(main_seq);
  for (int leaf : tree.leaves()) {
    const int id = first_branch_seq + layout.branches++;
    for (int n = leaf; n >= 0; n = tree.parent(n))
      layout.seq_ids[static_cast<size_t>(n)].push_back(id);
  }
  return layout;
}

Acceptance accept_longest_path(const DraftTree& tree, const std::function<Token(int)>& policy) {
  Acceptance a;
  int node = 0;
  for (;;) {
    const Token t = policy(node);
    a.nodes.push_back(node);
    a.emitted.push_back(t);
    node = tree.find_child(node, t);
    if (node < 0) return a;
  }
}

void place_tree(Model& model, const DraftTree& tree, int root_pos, int main_seq,
                int first_branch_seq, TreeLayout& layout, std::vector<BatchToken>& batch) {
  layout = layout_tree(tree, main_seq, first_branch_seq);
  if (layout.branches > 0 && first_branch_seq + layout.branches > model.n_seq_max())
    throw std::invalid_argument(
        "draft tree has " + std::to_string(layout.branches) + " branches; only " +
        std::to_string(model.n_seq_max() - first_branch_seq) + " sequence ids are free");
  // Branches see the committed prefix: share its cells with every branch id (metadata only).
  for (int b = 0; b < layout.branches; ++b) model.kv_seq_cp(main_seq, first_branch_seq + b, -1, -1);
  for (int i = 0; i < tree.size(); ++i)
    batch.push_back(
        {tree.token(i), root_pos + tree.depth(i), layout.seq_ids[static_cast<size_t>(i)], true});
}

void commit_tree(Model& model, const DraftTree& tree, const TreeLayout& layout,
                 std::span<const int> kept_nodes, int root_pos, int main_seq,
                 int first_branch_seq) {
  const int deepest = kept_nodes.empty() ? 0 : kept_nodes.back();
  if (layout.branches == 0) {
    // A chain sits in main_seq already: cut off what was not kept.
    if (tree.size() > 1) model.kv_seq_rm(main_seq, root_pos + tree.depth(deepest) + 1, -1);
    return;
  }
  if (deepest > 0) {
    // The kept nodes are exactly the cells of any branch through `deepest` at positions
    // (root_pos, root_pos + depth]: copy them to the main sequence.
    const int branch = layout.seq_ids[static_cast<size_t>(deepest)][0];
    model.kv_seq_cp(branch, main_seq, root_pos + 1, root_pos + tree.depth(deepest) + 1);
  }
  for (int b = 0; b < layout.branches; ++b) model.kv_seq_rm(first_branch_seq + b, -1, -1);
  // Nodes took cells in batch order, so the ones before `deepest` that were not kept are now
  // free cells between kept ones; those after it are free at the end, as a chain's are.
  model.add_kv_holes(deepest + 1 - std::max(1, static_cast<int>(kept_nodes.size())));
}

TreeVerifier::TreeVerifier(Model& model, int main_seq, int first_branch_seq)
    : model_(model), main_seq_(main_seq), first_branch_seq_(first_branch_seq) {}

void TreeVerifier::evaluate(const DraftTree& tree, int root_pos) {
  batch_.clear();
  place_tree(model_, tree, root_pos, main_seq_, first_branch_seq_, layout_, batch_);
  model_.decode(batch_);
}

void TreeVerifier::commit(const DraftTree& tree, const Acceptance& acceptance, int root_pos) {
  commit_tree(model_, tree, layout_, acceptance.nodes, root_pos, main_seq_, first_branch_seq_);
}

}  // namespace reader
