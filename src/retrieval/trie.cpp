// ShortTermTrie construction: node pool, child blocks, the (node, token) hash, window insertion
// and eviction. Lookups live in trie_query.cpp, invariant checks in trie_integrity.cpp.
#include "reader/trie.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace reader {
namespace {

// Nodes with more children than this are indexed by the hash; below it a scan of the
// contiguous block (a cache line or two) is faster than hashing.
constexpr std::int32_t kLinearChildren = 8;

// Child order: higher count first, then lower token id first.
bool ranks_before(const TrieEdge& a, std::uint32_t count, Token token) {
  return a.count > count || (a.count == count && a.token < token);
}

std::uint64_t slot_key(std::int32_t node, Token token) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(node)) << 32) |
         static_cast<std::uint32_t>(token);
}

// splitmix64 finalizer: node and token ids are small and dense, so mix before masking.
std::size_t slot_hash(std::uint64_t key) {
  key ^= key >> 30;
  key *= 0xbf58476d1ce4e5b9ull;
  key ^= key >> 27;
  key *= 0x94d049bb133111ebull;
  key ^= key >> 31;
  return static_cast<std::size_t>(key);
}

}  // namespace

ShortTermTrie::ShortTermTrie(TrieOptions options) : options_(options) {
  if (options_.max_depth < 1 || options_.max_depth > 65535) {
    throw std::invalid_argument("ShortTermTrie: max_depth must be in [1, 65535]");
  }
  const std::size_t depth = static_cast<std::size_t>(options_.max_depth);
  if (options_.max_nodes < 4 * (depth + 1) || options_.max_nodes > (1u << 30)) {
    throw std::invalid_argument(
        "ShortTermTrie: max_nodes must be in [4*(max_depth+1), 2^30], got " +
        std::to_string(options_.max_nodes));
  }
  keep_tokens_ = options_.max_nodes / (2 * depth);
  free_blocks_.resize(32);
  active_.reserve(depth);
  reset_structure();
}

void ShortTermTrie::clear() {
  reset_structure();
  history_.clear();
}

void ShortTermTrie::reset_structure() {
  compacted_nodes_ = 0;
  nodes_.clear();
  nodes_.push_back(Node{});
  root_count_ = 0;
  edges_.clear();
  for (auto& list : free_blocks_) list.clear();
  std::fill(slots_.begin(), slots_.end(), Slot{});
  slots_used_ = 0;
  active_.clear();
}

bool ShortTermTrie::hashed(std::int32_t node) const {
  return node == kRoot || nodes_[static_cast<std::size_t>(node)].size > kLinearChildren;
}

const ShortTermTrie::Slot* ShortTermTrie::hash_find(std::int32_t node, Token token) const {
  if (slots_.empty()) return nullptr;
  const std::uint64_t key = slot_key(node, token);
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = slot_hash(key) & mask;; i = (i + 1) & mask) {
    const Slot& slot = slots_[i];
    if (slot.key == key) return &slot;
    if (slot.key == Slot{}.key) return nullptr;
  }
}

ShortTermTrie::Slot* ShortTermTrie::hash_find(std::int32_t node, Token token) {
  return const_cast<Slot*>(std::as_const(*this).hash_find(node, token));
}

void ShortTermTrie::hash_put(std::int32_t node, const TrieEdge& edge) {
  // Keep the load factor <= 1/2 so probes stay short.
  if (2 * (slots_used_ + 1) > slots_.size()) hash_grow();
  const std::uint64_t key = slot_key(node, edge.token);
  const std::size_t mask = slots_.size() - 1;
  std::size_t i = slot_hash(key) & mask;
  while (slots_[i].key != Slot{}.key) i = (i + 1) & mask;
  slots_[i] = Slot{key, edge.child, edge.count};
  ++slots_used_;
}

void ShortTermTrie::hash_grow() {
  std::vector<Slot> old(std::max<std::size_t>(64, 2 * slots_.size()));
  old.swap(slots_);
  const std::size_t mask = slots_.size() - 1;
  for (const Slot& slot : old) {
    if (slot.key == Slot{}.key) continue;
    std::size_t i = slot_hash(slot.key) & mask;
    while (slots_[i].key != Slot{}.key) i = (i + 1) & mask;
    slots_[i] = slot;
  }
}

std::int32_t ShortTermTrie::allocate_block(int log_capacity) {
  auto& list = free_blocks_[static_cast<std::size_t>(log_capacity)];
  if (!list.empty()) {
    const std::int32_t offset = list.back();
    list.pop_back();
    return offset;
  }
  const std::size_t offset = edges_.size();
  edges_.resize(offset + (std::size_t{1} << log_capacity));
  return static_cast<std::int32_t>(offset);
}

void ShortTermTrie::free_block(std::int32_t offset, int log_capacity) {
  free_blocks_[static_cast<std::size_t>(log_capacity)].push_back(offset);
}

std::int32_t ShortTermTrie::add_child(std::int32_t node, Token token) {
  const auto child = static_cast<std::int32_t>(nodes_.size());
  Node fresh;
  fresh.depth = static_cast<std::uint16_t>(nodes_[static_cast<std::size_t>(node)].depth + 1);
  nodes_.push_back(fresh);
  Node& p = nodes_[static_cast<std::size_t>(node)];
  const TrieEdge edge{token, child, 1};
  if (p.size == 0) {
    p.top = edge;  // a single child lives inline, no block
  } else {
    // New children have count 1: they go after every count > 1 and after lower-id count-1
    // siblings. The root's block is unordered and simply grows at the end (which keeps it
    // sorted by child index, what bump relies on to locate a root edge).
    const std::int32_t size = p.size;
    TrieEdge* first = size == 1 ? &p.top : edges_.data() + p.block;
    std::int32_t pos = size;
    if (node != kRoot) {
      pos = static_cast<std::int32_t>(
          std::partition_point(first, first + size,
                               [&](const TrieEdge& e) { return ranks_before(e, 1, token); }) -
          first);
    }
    if (size == 1 || size == (1 << p.log_capacity)) {
      const int log_capacity = size == 1 ? 1 : p.log_capacity + 1;
      const TrieEdge top = p.top;
      const std::int32_t block = allocate_block(log_capacity);  // may move edges_
      Node& q = nodes_[static_cast<std::size_t>(node)];
      const TrieEdge* from = size == 1 ? &top : edges_.data() + q.block;
      TrieEdge* to = edges_.data() + block;
      std::copy(from, from + pos, to);
      to[pos] = edge;
      std::copy(from + pos, from + size, to + pos + 1);
      if (size > 1) free_block(q.block, q.log_capacity);
      q.block = block;
      q.log_capacity = static_cast<std::uint8_t>(log_capacity);
    } else {
      std::copy_backward(first + pos, first + size, first + size + 1);
      first[pos] = edge;
    }
  }
  Node& q = nodes_[static_cast<std::size_t>(node)];
  ++q.size;
  if (q.size >= 2) q.top = edges_[static_cast<std::size_t>(q.block)];
  if (node == kRoot || q.size > kLinearChildren + 1) {
    hash_put(node, edge);
  } else if (q.size == kLinearChildren + 1) {
    // Just became high-fanout: index all its children.
    for (std::int32_t i = 0; i < q.size; ++i) {
      hash_put(node, edges_[static_cast<std::size_t>(q.block + i)]);
    }
  }
  return child;
}

void ShortTermTrie::bump_block_edge(std::int32_t node, std::int32_t pos) {
  Node& n = nodes_[static_cast<std::size_t>(node)];
  TrieEdge* first = edges_.data() + n.block;
  TrieEdge edge = first[pos];
  ++edge.count;
  std::int32_t to = pos;
  if (node != kRoot) {
    // Bubble toward the front past siblings that now rank after it (usually none or one).
    to = static_cast<std::int32_t>(
        std::partition_point(
            first, first + pos,
            [&](const TrieEdge& e) { return ranks_before(e, edge.count, edge.token); }) -
        first);
    std::copy_backward(first + to, first + pos, first + pos + 1);
  }
  first[to] = edge;
  if (to == 0) n.top = edge;
}

std::int32_t ShortTermTrie::bump(std::int32_t node, Token token) {
  Node& n = nodes_[static_cast<std::size_t>(node)];
  if (!hashed(node)) {
    if (n.size == 0) return add_child(node, token);
    if (n.top.token == token) {  // the common case deep in the trie
      if (n.size == 1) {
        ++n.top.count;
        return n.top.child;
      }
      bump_block_edge(node, 0);
      return n.top.child;
    }
    if (n.size >= 2) {  // block[0] is the top, already checked
      const TrieEdge* first = edges_.data() + n.block;
      for (std::int32_t i = 1; i < n.size; ++i) {
        if (first[i].token == token) {
          const std::int32_t child = first[i].child;
          bump_block_edge(node, i);
          return child;
        }
      }
    }
    return add_child(node, token);
  }
  Slot* slot = hash_find(node, token);
  if (slot == nullptr) return add_child(node, token);
  const std::uint32_t count = slot->count++;
  const std::int32_t child = slot->child;
  if (n.size == 1) {
    ++n.top.count;
    return child;
  }
  const TrieEdge* first = edges_.data() + n.block;
  std::int32_t pos = 0;
  if (node == kRoot) {
    // Root children are appended in creation order, i.e. by increasing child index.
    pos = static_cast<std::int32_t>(
        std::partition_point(first, first + n.size,
                             [&](const TrieEdge& e) { return e.child < child; }) -
        first);
  } else {
    pos = static_cast<std::int32_t>(
        std::partition_point(first, first + n.size,
                             [&](const TrieEdge& e) { return ranks_before(e, count, token); }) -
        first);
  }
  bump_block_edge(node, pos);
  return child;
}

void ShortTermTrie::step(Token token, std::vector<std::int32_t>& active) {
  const std::size_t max_open = static_cast<std::size_t>(options_.max_depth - 1);
  // Extend open windows deepest first so active[i] is read before active[i+1] is overwritten;
  // a window reaching depth D is complete and leaves the set.
  for (std::size_t i = active.size(); i-- > 0;) {
    const std::int32_t child = bump(active[i], token);
    if (i + 1 < max_open) {
      if (i + 1 == active.size()) {
        active.push_back(child);
      } else {
        active[i + 1] = child;
      }
    }
  }
  ++root_count_;  // every token starts one window
  const std::int32_t first = bump(kRoot, token);
  if (max_open > 0) {
    if (active.empty()) {
      active.push_back(first);
    } else {
      active[0] = first;
    }
  }
}

bool ShortTermTrie::needs_eviction() const {
  return nodes_.size() + static_cast<std::size_t>(options_.max_depth) + 1 > options_.max_nodes ||
         root_count_ >= std::numeric_limits<std::uint32_t>::max() - 1;
}

void ShortTermTrie::remember(Token token) {
  history_.push_back(token);
  // Trim in bulk so the copy is amortised O(1) per token.
  if (history_.size() >= 2 * keep_tokens_) {
    history_.erase(history_.begin(), history_.end() - static_cast<std::ptrdiff_t>(keep_tokens_));
  }
}

void ShortTermTrie::evict() {
  const std::size_t keep = std::min(keep_tokens_, history_.size());
  const Tokens recent(history_.end() - static_cast<std::ptrdiff_t>(keep), history_.end());
  reset_structure();
  history_.clear();
  // K tokens create at most K*D + 1 <= max_nodes/2 + 1 nodes: no eviction during the rebuild.
  for (const Token t : recent) {
    step(t, active_);
    remember(t);
  }
  if (options_.auto_compact) compact();
  ++evictions_;
}

void ShortTermTrie::maybe_compact() {
  constexpr std::size_t kMinNodes = std::size_t{1} << 14;  // smaller tries stay in cache anyway
  if (options_.auto_compact && nodes_.size() >= kMinNodes &&
      nodes_.size() >= 2 * compacted_nodes_) {
    compact();
  }
}

void ShortTermTrie::append(TokenSpan new_tokens) {
  for (const Token t : new_tokens) {
    if (needs_eviction()) evict();
    step(t, active_);
    remember(t);
  }
  maybe_compact();
}

void ShortTermTrie::insert(TokenSpan seq) {
  std::vector<std::int32_t> active;
  active.reserve(static_cast<std::size_t>(options_.max_depth));
  for (const Token t : seq) {
    if (needs_eviction()) {
      evict();
      active.clear();  // its nodes are gone
    }
    step(t, active);
  }
  maybe_compact();
}

}  // namespace reader
