// Verification: one forward pass over a draft tree, the acceptance rule, the KV commit.
//
// Layout: every root-to-leaf branch gets its own sequence id; a node carries the ids of
// all branches through it, so each node's query sees exactly its ancestors plus the
// committed prefix (which is shared with the branch ids before the pass).
// Acceptance: walk from the root, at each node ask the decoding policy for the token it
// emits there; descend into the child holding that token, else stop. Every emitted
// token is what the policy would emit autoregressively, hence lossless.
// Commit: the accepted nodes' cells move to the main sequence; branch ids are dropped.
#pragma once

#include <functional>
#include <span>
#include <vector>

#include "reader/draft_tree.h"
#include "reader/model.h"

namespace reader {

// Sequence-id sets for every node of a tree (pure; no model involved).
struct TreeLayout {
  std::vector<std::vector<int>> seq_ids;  // per node; [0] is the id its query uses
  int branches = 0;                       // leaves below the root (branch ids used)
};
// Branch ids are first_branch_seq, first_branch_seq + 1, ...; the root also carries main_seq.
// A chain (one leaf) needs no branch ids: its nodes go straight into main_seq, and a
// rejected tail is cut off (this is what lets one KV stream per sequence verify drafts).
TreeLayout layout_tree(const DraftTree& tree, int main_seq, int first_branch_seq);
// A tree is a chain when no node has two children.
bool is_chain(const DraftTree& tree);
// The chain along each node's first (best) child: what a tree becomes where only chains
// may be verified.
DraftTree first_child_chain(const DraftTree& tree);

// Result of walking the tree with the policy.
struct Acceptance {
  std::vector<int> nodes;  // accepted path: root first, then matched drafted nodes
  Tokens emitted;          // policy's token at each accepted node (last = the bonus token)
  int accepted_drafts() const { return static_cast<int>(nodes.size()) - 1; }
};
// `policy(node)` returns the token the decoding policy emits after `node`'s prefix.
Acceptance accept_longest_path(const DraftTree& tree, const std::function<Token(int)>& policy);

// The one KV routine every verifier shares. place_tree() lays `tree` (root at root_pos)
// out for sequence main_seq, shares the committed prefix with its branch ids and appends
// its rows to `batch` (seq-id spans point into `layout`, which must outlive the decode).
void place_tree(Model& model, const DraftTree& tree, int root_pos, int main_seq,
                int first_branch_seq, TreeLayout& layout, std::vector<BatchToken>& batch);
// Keeps the cells of `kept_nodes` (root first: the accepted path, possibly cut short by a
// stop) in main_seq and frees every other cell the tree used.
void commit_tree(Model& model, const DraftTree& tree, const TreeLayout& layout,
                 std::span<const int> kept_nodes, int root_pos, int main_seq, int first_branch_seq);

// Runs layout, decode and commit on a Model for one sequence.
class TreeVerifier {
 public:
  // Uses main_seq for the committed sequence and branch ids from first_branch_seq on.
  TreeVerifier(Model& model, int main_seq, int first_branch_seq);
  // Decodes the whole tree in one call; the root sits at position root_pos.
  void evaluate(const DraftTree& tree, int root_pos);
  const float* logits(int node) const { return model_.logits(node); }
  // Keeps the accepted nodes' cells in the main sequence and frees everything else.
  void commit(const DraftTree& tree, const Acceptance& acceptance, int root_pos);
  int max_branches() const { return model_.n_seq_max() - first_branch_seq_; }

 private:
  Model& model_;
  int main_seq_;
  int first_branch_seq_;
  TreeLayout layout_;
  std::vector<BatchToken> batch_;
};

}  // namespace reader
