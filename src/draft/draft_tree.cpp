#include "reader/draft_tree.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace reader {

DraftTree::DraftTree(Token root, int budget) : budget_(std::max(1, budget)) {
  tokens_.push_back(root);
  parents_.push_back(-1);
  depths_.push_back(0);
  sources_.push_back(DraftSource::kModel);
  scores_.push_back(1.0f);
  first_child_.push_back(-1);
  next_sibling_.push_back(-1);
}

int DraftTree::find_child(int parent, Token token) const {
  for (int c = first_child_[static_cast<size_t>(parent)]; c >= 0;
       c = next_sibling_[static_cast<size_t>(c)])
    if (tokens_[static_cast<size_t>(c)] == token) return c;
  return -1;
}

int DraftTree::add(int parent, Token token, DraftSource source, float score) {
  if (parent < 0 || parent >= size()) throw std::out_of_range("DraftTree::add: bad parent");
  if (const int existing = find_child(parent, token); existing >= 0) return existing;
  if (full()) return -1;
  const int id = size();
  tokens_.push_back(token);
  parents_.push_back(parent);
  depths_.push_back(depths_[static_cast<size_t>(parent)] + 1);
  sources_.push_back(source);
  scores_.push_back(score);
  first_child_.push_back(-1);
  next_sibling_.push_back(-1);
  // Append at the end of the sibling list: insertion order = drafter's preference order.
  int* link = &first_child_[static_cast<size_t>(parent)];
  while (*link >= 0) link = &next_sibling_[static_cast<size_t>(*link)];
  *link = id;
  return id;
}

int DraftTree::add_path(int parent, TokenSpan path, DraftSource source) {
  int added = 0;
  for (Token t : path) {
    const int before = size();
    parent = add(parent, t, source);
    if (parent < 0) break;
    added += size() - before;
  }
  return added;
}

int DraftTree::max_depth() const { return *std::max_element(depths_.begin(), depths_.end()); }

int DraftTree::first_child(int node) const { return first_child_[static_cast<size_t>(node)]; }

Tokens DraftTree::path_to(int node) const {
  Tokens path;
  for (int n = node; n > 0; n = parents_[static_cast<size_t>(n)])
    path.push_back(tokens_[static_cast<size_t>(n)]);
  std::reverse(path.begin(), path.end());
  return path;
}

std::vector<int> DraftTree::leaves() const {
  std::vector<int> out;
  for (int i = 0; i < size(); ++i)
    if (first_child_[static_cast<size_t>(i)] < 0) out.push_back(i);
  return out;
}

void DraftTree::check_integrity() const {
  const auto fail = [](const std::string& what) { throw std::logic_error("DraftTree: " + what); };
  if (size() > budget_) fail("over budget");
  if (parents_[0] != -1 || depths_[0] != 0) fail("bad root");
  for (int i = 1; i < size(); ++i) {
    const int p = parents_[static_cast<size_t>(i)];
    if (p < 0 || p >= i) fail("node " + std::to_string(i) + " not stored after its parent");
    if (depths_[static_cast<size_t>(i)] != depths_[static_cast<size_t>(p)] + 1) fail("bad depth");
    for (int j = 1; j < i; ++j)
      if (parents_[static_cast<size_t>(j)] == p &&
          tokens_[static_cast<size_t>(j)] == tokens_[static_cast<size_t>(i)])
        fail("duplicate sibling token");
  }
  int linked = 0;
  for (int i = 0; i < size(); ++i)
    for (int c = first_child_[static_cast<size_t>(i)]; c >= 0;
         c = next_sibling_[static_cast<size_t>(c)]) {
      if (parents_[static_cast<size_t>(c)] != i) fail("child list inconsistent");
      ++linked;
    }
  if (linked != size() - 1) fail("child lists do not cover every node");
}

std::vector<int> add_parents_array(DraftTree& tree, int parent, TokenSpan tokens,
                                   std::span<const int> parents, std::span<const float> scores,
                                   DraftSource source, int max_leaves) {
  if (parents.size() != tokens.size() || (!scores.empty() && scores.size() != tokens.size()))
    throw std::invalid_argument("add_parents_array: arrays of different lengths");
  // Branches = leaves below the root; a root without children has none.
  int branches = 0;
  if (tree.size() > 1)
    for (int i = 1; i < tree.size(); ++i) branches += tree.first_child(i) < 0;
  std::vector<int> node(tokens.size(), -1);
  for (size_t i = 0; i < tokens.size(); ++i) {
    const int p = parents[i];
    if (p >= static_cast<int>(i) || p < -1)
      throw std::invalid_argument("add_parents_array: entry " + std::to_string(i) + " has parent " +
                                  std::to_string(p) + ", not an earlier entry");
    const int under = p < 0 ? parent : node[static_cast<size_t>(p)];
    if (under < 0) continue;  // its parent was dropped
    if (const int existing = tree.find_child(under, tokens[i]); existing >= 0) {
      node[i] = existing;
      continue;
    }
    // A child under a childless node extends its branch (or opens the first one).
    const bool new_branch = tree.first_child(under) >= 0 || tree.size() == 1;
    if (new_branch && branches >= max_leaves) continue;
    node[i] = tree.add(under, tokens[i], source, scores.empty() ? 0.0f : scores[i]);
    if (node[i] >= 0 && new_branch) ++branches;
  }
  return node;
}

}  // namespace reader
