// ShortTermTrie lookups: suffix matching with fallback, next-token lists and the three draft
// extraction strategies (best path, frequency-ordered DFS, best-first by probability).
#include <algorithm>
#include <queue>

#include "reader/trie.h"

namespace reader {

std::span<const TrieEdge> ShortTermTrie::children(std::int32_t node) const {
  const Node& n = nodes_[static_cast<std::size_t>(node)];
  if (n.size <= 1) return {&n.top, static_cast<std::size_t>(n.size)};
  return {edges_.data() + n.block, static_cast<std::size_t>(n.size)};
}

TrieEdge ShortTermTrie::edge(std::int32_t node, Token token) const {
  const Node& n = nodes_[static_cast<std::size_t>(node)];
  if (n.size > 0 && n.top.token == token) return n.top;  // skips the block and the hash
  if (hashed(node)) {
    const Slot* slot = hash_find(node, token);
    return slot == nullptr ? TrieEdge{token, -1, 0} : TrieEdge{token, slot->child, slot->count};
  }
  for (const TrieEdge& e : children(node)) {
    if (e.token == token) return e;
  }
  return TrieEdge{token, -1, 0};
}

int ShortTermTrie::depth(std::int32_t node) const {
  return nodes_[static_cast<std::size_t>(node)].depth;
}

TrieMatch ShortTermTrie::match(TokenSpan context, int max_suffix_len) const {
  // A node at depth D has no children, so matching more than D-1 tokens cannot help.
  const int longest = std::min({max_suffix_len, options_.max_depth - 1,
                                static_cast<int>(std::min<std::size_t>(context.size(), 1 << 30))});
  for (int len = longest; len > 0; --len) {
    TrieEdge e{0, kRoot, 0};
    for (const Token t : context.last(static_cast<std::size_t>(len))) {
      e = edge(e.child, t);
      if (e.child < 0) break;
    }
    if (e.child >= 0 && nodes_[static_cast<std::size_t>(e.child)].size > 0) {
      return TrieMatch{e.child, len, e.count};
    }
  }
  return {};
}

std::vector<TokenCount> ShortTermTrie::next_tokens(TokenSpan context, int max_suffix_len) const {
  std::vector<TokenCount> out;
  append_next_token_counts(context, max_suffix_len, out);
  return out;
}

std::vector<TokenCount> ShortTermTrie::next_token_counts(TokenSpan context,
                                                         int max_suffix_len) const {
  return next_tokens(context, max_suffix_len);
}

int ShortTermTrie::append_next_token_counts(TokenSpan context, int max_suffix_len,
                                            std::vector<TokenCount>& out) const {
  const TrieMatch m = match(context, max_suffix_len);
  if (!m) return 0;
  for (const TrieEdge& e : children(m.node)) out.push_back(TokenCount{e.token, e.count});
  return m.length;
}

Tokens ShortTermTrie::best_path(TokenSpan context, int max_suffix_len, int depth) const {
  Tokens path;
  if (depth <= 0) return path;
  const TrieMatch m = match(context, max_suffix_len);
  if (!m) return path;
  path.reserve(static_cast<std::size_t>(depth));
  // (context ++ path)[size - 1 - i]
  const auto from_end = [&](std::size_t i) {
    return i < path.size() ? path[path.size() - 1 - i]
                           : context[context.size() - 1 - (i - path.size())];
  };
  // Re-anchoring at a depth-D leaf first tries the last `anchor` tokens, i.e. the leaf's path
  // from depth D - anchor + 1 on. A shadow walk follows those tokens from the root alongside
  // the main walk, so that lookup overlaps the walk instead of following it.
  const int max_depth = options_.max_depth;
  const int anchor = std::min(max_suffix_len, max_depth - 1);
  std::int32_t node = m.node;
  int node_depth = m.length;
  std::int32_t shadow = kRoot;  // node of the last node_depth - (D - anchor) tokens, -1 = absent
  const auto start_shadow = [&] {
    shadow = kRoot;
    for (int k = node_depth - (max_depth - anchor); k > 0 && shadow >= 0; --k) {
      shadow = child(shadow, from_end(static_cast<std::size_t>(k - 1)));
    }
  };
  start_shadow();
  Tokens tail;  // context ++ path suffix, only built when the shadow cannot be used
  while (path.size() < static_cast<std::size_t>(depth)) {
    if (nodes_[static_cast<std::size_t>(node)].size == 0) {
      // Ran off the stored windows: continue from the longest suffix that still has children.
      if (node_depth == max_depth && shadow >= 0 &&
          nodes_[static_cast<std::size_t>(shadow)].size > 0) {
        node = shadow;
        node_depth = anchor;
      } else {
        const std::size_t want = static_cast<std::size_t>(std::max(0, max_suffix_len));
        const std::size_t from_path = std::min(want, path.size());
        const std::size_t from_context = std::min(want - from_path, context.size());
        tail.assign(context.end() - static_cast<std::ptrdiff_t>(from_context), context.end());
        tail.insert(tail.end(), path.end() - static_cast<std::ptrdiff_t>(from_path), path.end());
        const TrieMatch again = match(tail, max_suffix_len);
        if (!again) break;
        node = again.node;
        node_depth = again.length;
      }
      start_shadow();
    }
    const TrieEdge& top = nodes_[static_cast<std::size_t>(node)].top;
    path.push_back(top.token);
    node = top.child;
    ++node_depth;
    const int k = node_depth - (max_depth - anchor);
    if (k >= 1 && shadow >= 0) shadow = child(shadow, top.token);
  }
  return path;
}

DraftSubtree ShortTermTrie::extract_dfs(TokenSpan context, int max_suffix_len, int max_depth,
                                        int token_budget) const {
  DraftSubtree out;
  if (token_budget <= 0 || max_depth <= 0) return out;
  const TrieMatch m = match(context, max_suffix_len);
  if (!m) return out;
  struct Frame {
    std::span<const TrieEdge> kids;  // children of the node being expanded
    std::size_t next;                // next child to visit
    double count;                    // the node's count (probability denominator)
    double prob;                     // estimated probability of reaching the node
    std::int32_t index;              // the node's index in out, -1 for the matched node
    int depth;                       // levels below the match
  };
  std::vector<Frame> stack;
  stack.reserve(static_cast<std::size_t>(std::min(max_depth, options_.max_depth)) + 1);
  stack.push_back(Frame{children(m.node), 0, static_cast<double>(m.count), 1.0, -1, 0});
  const auto budget = static_cast<std::size_t>(token_budget);
  while (!stack.empty() && out.size() < budget) {
    Frame& f = stack.back();
    if (f.depth >= max_depth || f.next >= f.kids.size()) {
      stack.pop_back();
      continue;
    }
    const TrieEdge& e = f.kids[f.next++];
    const double prob = f.prob * (static_cast<double>(e.count) / f.count);
    out.push(e.token, f.index, e.count, prob);
    const Frame next{children(e.child),
                     0,
                     static_cast<double>(e.count),
                     prob,
                     static_cast<std::int32_t>(out.size() - 1),
                     f.depth + 1};
    stack.push_back(next);  // invalidates f
  }
  return out;
}

DraftSubtree ShortTermTrie::extract_best_first(TokenSpan context, int max_suffix_len, int max_depth,
                                               int token_budget) const {
  DraftSubtree out;
  if (token_budget <= 0 || max_depth <= 0) return out;
  const TrieMatch m = match(context, max_suffix_len);
  if (!m) return out;
  struct Candidate {
    double prob;          // estimated path probability
    std::uint64_t seq;    // discovery order, breaks probability ties
    TrieEdge edge;        // edge into the candidate node
    std::int32_t parent;  // index in out of its parent, -1 = the matched node
    int depth;            // levels below the match
  };
  const auto worse = [](const Candidate& a, const Candidate& b) {
    return a.prob < b.prob || (a.prob == b.prob && a.seq > b.seq);
  };
  std::vector<Candidate> heap;
  std::uint64_t seq = 0;
  const auto budget = static_cast<std::size_t>(token_budget);
  // Children are in rank order, so a later sibling can only be taken after every earlier one:
  // with r slots left, children beyond the first r can never be taken and are not queued.
  const auto push_children = [&](std::int32_t node, std::uint64_t count, std::int32_t parent,
                                 int depth, double prob) {
    const std::span<const TrieEdge> kids = children(node);
    const std::size_t take = std::min(kids.size(), budget - out.size());
    for (std::size_t i = 0; i < take; ++i) {
      const TrieEdge& e = kids[i];
      heap.push_back(Candidate{prob * (static_cast<double>(e.count) / static_cast<double>(count)),
                               seq++, e, parent, depth});
      std::push_heap(heap.begin(), heap.end(), worse);
    }
  };
  push_children(m.node, m.count, -1, 1, 1.0);
  while (!heap.empty() && out.size() < budget) {
    std::pop_heap(heap.begin(), heap.end(), worse);
    const Candidate c = heap.back();
    heap.pop_back();
    out.push(c.edge.token, c.parent, c.edge.count, c.prob);
    if (c.depth < max_depth) {
      push_children(c.edge.child, c.edge.count, static_cast<std::int32_t>(out.size() - 1),
                    c.depth + 1, c.prob);
    }
  }
  return out;
}

}  // namespace reader
