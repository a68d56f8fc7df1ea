// ShortTermTrie self-checks (called by tests after every kind of mutation) and memory
// accounting.
#include <bit>
#include <stdexcept>
#include <string>
#include <utility>

#include "reader/trie.h"

namespace reader {
namespace {

[[noreturn]] void fail(const std::string& what, std::int64_t node) {
  throw std::logic_error("ShortTermTrie integrity: " + what + " (node " + std::to_string(node) +
                         ")");
}

}  // namespace

std::size_t ShortTermTrie::memory_bytes() const {
  std::size_t bytes = nodes_.capacity() * sizeof(Node) + edges_.capacity() * sizeof(TrieEdge) +
                      slots_.capacity() * sizeof(Slot) + active_.capacity() * sizeof(std::int32_t) +
                      history_.capacity() * sizeof(Token);
  for (const auto& list : free_blocks_) bytes += list.capacity() * sizeof(std::int32_t);
  return bytes;
}

void ShortTermTrie::check_integrity() const {
  if (nodes_.empty()) fail("no root", -1);
  if (nodes_.size() > options_.max_nodes) fail("node budget exceeded", -1);
  if (nodes_[kRoot].depth != 0) fail("root depth", kRoot);
  // Walk from the root carrying each node's count (it lives on the edge into the node).
  std::vector<char> seen(nodes_.size(), 0);
  seen[kRoot] = 1;
  std::size_t reached = 1;
  std::size_t expected_slots = 0;
  std::vector<std::pair<std::int32_t, std::uint64_t>> pending{{kRoot, root_count_}};
  while (!pending.empty()) {
    const auto [node, count] = pending.back();
    pending.pop_back();
    const Node& n = nodes_[static_cast<std::size_t>(node)];
    if (n.size < 0) fail("negative size", node);
    if (n.size <= 1 && n.block != -1) fail("block on a node with < 2 children", node);
    if (n.size >= 2) {
      const std::size_t capacity = std::size_t{1} << n.log_capacity;
      if (static_cast<std::size_t>(n.size) > capacity) fail("block size exceeds capacity", node);
      if (n.block < 0 || static_cast<std::size_t>(n.block) + capacity > edges_.size()) {
        fail("block out of range", node);
      }
      const TrieEdge& first = edges_[static_cast<std::size_t>(n.block)];
      if (first.token != n.top.token || first.child != n.top.child || first.count != n.top.count) {
        fail("inline top differs from block[0]", node);
      }
    }
    if (n.size > 0 && n.depth >= options_.max_depth) fail("children below max depth", node);
    if (hashed(node)) expected_slots += static_cast<std::size_t>(n.size);
    std::uint64_t sum = 0;
    const std::span<const TrieEdge> kids = children(node);
    for (std::size_t i = 0; i < kids.size(); ++i) {
      const TrieEdge& e = kids[i];
      if (e.child <= 0 || static_cast<std::size_t>(e.child) >= nodes_.size()) {
        fail("child index out of range", node);
      }
      if (seen[static_cast<std::size_t>(e.child)]) fail("node with two parents", e.child);
      seen[static_cast<std::size_t>(e.child)] = 1;
      ++reached;
      if (nodes_[static_cast<std::size_t>(e.child)].depth != n.depth + 1) {
        fail("child depth", e.child);
      }
      if (e.count == 0) fail("zero count", e.child);
      const TrieEdge found = edge(node, e.token);
      if (found.child != e.child || found.count != e.count) {
        fail("lookup disagrees with child list", node);
      }
      if (hashed(node)) {
        const Slot* slot = hash_find(node, e.token);
        if (slot == nullptr || slot->child != e.child || slot->count != e.count) {
          fail("hash entry disagrees with child list", node);
        }
      }
      sum += e.count;
      if (i > 0) {
        const TrieEdge& p = kids[i - 1];
        if (node == kRoot) {
          if (p.child >= e.child) fail("root block not in creation order", node);
        } else if (!(p.count > e.count || (p.count == e.count && p.token < e.token))) {
          fail("children out of order or duplicate token", node);
        }
      }
      pending.emplace_back(e.child, e.count);
    }
    if (node == kRoot ? sum != count : sum > count) fail("children counts exceed count", node);
  }
  if (reached != nodes_.size()) fail("unreachable nodes", -1);
  if (expected_slots != slots_used_) fail("hash entry count", -1);
  if (!slots_.empty() && !std::has_single_bit(slots_.size())) fail("hash size", -1);
  for (std::size_t i = 0; i < active_.size(); ++i) {
    const std::int32_t a = active_[i];
    if (a <= 0 || static_cast<std::size_t>(a) >= nodes_.size()) fail("active out of range", a);
    if (nodes_[static_cast<std::size_t>(a)].depth != static_cast<int>(i) + 1) {
      fail("active window depth", a);
    }
  }
  if (active_.size() >= static_cast<std::size_t>(options_.max_depth)) fail("too many windows", -1);
}

}  // namespace reader
