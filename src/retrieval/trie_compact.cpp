// ShortTermTrie::compact: renumbers nodes in depth-first pre-order (most frequent child first)
// and repacks child blocks in the same order. Walks are bound by memory latency; after this a
// best path (top child after top child) reads consecutive nodes, and small subtrees sit in a
// few neighbouring cache lines, so the hardware prefetcher does most of the work.
#include <algorithm>
#include <bit>

#include "reader/trie.h"

namespace reader {

void ShortTermTrie::compact() {
  const std::size_t n = nodes_.size();
  std::vector<std::int32_t> renamed(n, -1);
  std::vector<std::int32_t> order;
  order.reserve(n);
  std::vector<std::int32_t> stack{kRoot};
  while (!stack.empty()) {
    const std::int32_t v = stack.back();
    stack.pop_back();
    renamed[static_cast<std::size_t>(v)] = static_cast<std::int32_t>(order.size());
    order.push_back(v);
    const std::span<const TrieEdge> kids = children(v);
    for (std::size_t i = kids.size(); i-- > 0;) stack.push_back(kids[i].child);  // first on top
  }

  std::vector<Node> nodes(n);
  std::vector<TrieEdge> edges;
  edges.reserve(edges_.size());
  for (std::size_t i = 0; i < n; ++i) {
    const Node& old = nodes_[static_cast<std::size_t>(order[i])];
    Node& node = nodes[i];
    node = old;
    if (old.size > 0) node.top.child = renamed[static_cast<std::size_t>(old.top.child)];
    if (old.size >= 2) {
      node.block = static_cast<std::int32_t>(edges.size());
      node.log_capacity =
          static_cast<std::uint8_t>(std::bit_width(static_cast<std::uint32_t>(old.size - 1)));
      for (const TrieEdge& e : children(order[i])) {
        edges.push_back(TrieEdge{e.token, renamed[static_cast<std::size_t>(e.child)], e.count});
      }
      edges.resize(edges.size() + (std::size_t{1} << node.log_capacity) -
                   static_cast<std::size_t>(old.size));
    }
  }
  // The root's block must stay sorted by child index (bump locates root edges that way).
  if (nodes[kRoot].size >= 2) {
    TrieEdge* first = edges.data() + nodes[kRoot].block;
    std::sort(first, first + nodes[kRoot].size,
              [](const TrieEdge& a, const TrieEdge& b) { return a.child < b.child; });
    nodes[kRoot].top = first[0];
  }
  nodes_.swap(nodes);
  edges_.swap(edges);
  for (auto& list : free_blocks_) list.clear();
  for (std::int32_t& a : active_) a = renamed[static_cast<std::size_t>(a)];

  std::fill(slots_.begin(), slots_.end(), Slot{});
  slots_used_ = 0;
  for (std::size_t v = 0; v < n; ++v) {
    if (!hashed(static_cast<std::int32_t>(v))) continue;
    for (const TrieEdge& e : children(static_cast<std::int32_t>(v))) {
      hash_put(static_cast<std::int32_t>(v), e);
    }
  }
  compacted_nodes_ = n;
}

}  // namespace reader
