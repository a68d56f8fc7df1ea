#include <stdexcept>
#include <string>

#include "reader/verify.h"

namespace reader {

TreeLayout layout_tree(const DraftTree& tree, int main_seq, int first_branch_seq) {
  TreeLayout layout;
  layout.seq_ids.assign(static_cast<size_t>(tree.size()), {});
  layout.seq_ids[0].push_back(main_seq);
  if (tree.size() == 1) return layout;
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

TreeVerifier::TreeVerifier(Model& model, int main_seq, int first_branch_seq)
    : model_(model), main_seq_(main_seq), first_branch_seq_(first_branch_seq) {}

void TreeVerifier::evaluate(const DraftTree& tree, int root_pos) {
  layout_ = layout_tree(tree, main_seq_, first_branch_seq_);
  if (layout_.branches > max_branches())
    throw std::invalid_argument("draft tree has " + std::to_string(layout_.branches) +
                                " branches; only " + std::to_string(max_branches()) +
                                " sequence ids are free");
  // Branches see the committed prefix: share its cells with every branch id (metadata only).
  for (int b = 0; b < layout_.branches; ++b)
    model_.kv_seq_cp(main_seq_, first_branch_seq_ + b, -1, -1);
  batch_.clear();
  for (int i = 0; i < tree.size(); ++i)
    batch_.push_back(
        {tree.token(i), root_pos + tree.depth(i), layout_.seq_ids[static_cast<size_t>(i)], true});
  model_.decode(batch_);
}

void TreeVerifier::commit(const DraftTree& tree, const Acceptance& acceptance, int root_pos) {
  if (layout_.branches == 0) return;  // only the root: it is already in the main sequence
  const int deepest = acceptance.nodes.back();
  if (deepest > 0) {
    // The accepted nodes are exactly the cells of any branch through `deepest` at
    // positions (root_pos, root_pos + depth]: copy them to the main sequence.
    const int branch = layout_.seq_ids[static_cast<size_t>(deepest)][0];
    model_.kv_seq_cp(branch, main_seq_, root_pos + 1, root_pos + tree.depth(deepest) + 1);
  }
  for (int b = 0; b < layout_.branches; ++b) model_.kv_seq_rm(first_branch_seq_ + b, -1, -1);
}

}  // namespace reader
