// ShortTermTrie: the per-sequence "short-term context" index of READER (paper, section 4.2).
// It counts every window of up to max_depth tokens of the sequence's own history (prompt, then
// accepted tokens) plus optional external documents, so that the suffix of the current context
// can be looked up and the most frequent continuations drafted.
//
// Layout: a pool of nodes addressed by int32 index (0 = root, the empty window). Memory latency
// dominates every walk, so a node carries its most frequent child inline ("top"): following the
// best path costs one node read per level, and the many single-child nodes deep in the trie
// need no separate child storage at all. Nodes with two or more children also own a
// contiguous block of TrieEdge {token, child, count} (top mirrored at position 0), kept sorted
// by count (high first, then lower token id first) as counts grow, so ranking continuations is
// a plain scan. Nodes with more than a handful of children (and the root) are also indexed by a
// flat hash (node, token) -> (child, count), so high-fanout nodes never need a linear search.
// The root's children are kept unordered: every lookup matches at least one token, so nothing
// ranks them.
//
// Counts: a node's count is the number of windows passing through it, stored on the edge that
// leads to it. Hence the root count is the number of windows (one per inserted token) and
// equals the sum of its children's counts; any other node's count is >= the sum of its
// children's counts (windows that end at the node because the sequence ended there do not
// continue). Nodes at depth max_depth have no children. Counts are 32-bit: a trie that has
// seen 2^32 - 2 windows since its last rebuild is evicted like a full one.
//
// Depth: windows hold at most D = max_depth tokens, so a context can match at most D-1 tokens
// and still have a continuation; lookups clamp the suffix length to D-1.
//
// Bounded memory (eviction): the trie never holds more than max_nodes nodes. Before a token is
// added, if the next token could overflow the budget (node_count() + D + 1 > max_nodes), the
// trie is cleared and rebuilt from the last K = max_nodes / (2*D) tokens of the running history
// (appended tokens only), which needs at most K*D + 1 <= max_nodes/2 + 1 nodes. Documents added
// with insert() are dropped by an eviction (re-insert them if still wanted); an insert() in
// progress continues with the windows that start after the eviction.
//
// Node indices (TrieMatch::node, TrieEdge::child) are only valid until the next mutation:
// compact() and evictions renumber nodes.
//
// Thread-safety: const methods only read, so concurrent lookups are safe; mutation is not.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "reader/draft_subtree.h"
#include "reader/search.h"
#include "reader/tokens.h"

namespace reader {

struct TrieOptions {
  int max_depth = 16;                // D: longest window stored; lookups match <= D-1 tokens
  std::size_t max_nodes = 1u << 22;  // node budget; exceeding it triggers eviction (see above)
  bool auto_compact = false;         // compact() after evictions and bulk growth (see compact())
};

// One child of a node, as stored in the node (its top child) or the node's child block.
struct TrieEdge {
  Token token = 0;          // the token leading to the child
  std::int32_t child = -1;  // index of the child node, -1 = none
  std::uint32_t count = 0;  // the child's count: windows passing through it
};

// Result of a suffix lookup.
struct TrieMatch {
  std::int32_t node = -1;   // matched node, -1 when nothing matched
  int length = 0;           // matched suffix length (= node depth), 0 = no match
  std::uint64_t count = 0;  // the matched node's count
  explicit operator bool() const { return length > 0; }
};

class ShortTermTrie final : public NextTokenSource {
 public:
  static constexpr std::int32_t kRoot = 0;

  // Throws std::invalid_argument unless 1 <= max_depth <= 65535 and
  // 4 * (max_depth + 1) <= max_nodes <= 2^30.
  explicit ShortTermTrie(TrieOptions options = {});

  // Adds a separate document (e.g. external text): all its windows of <= D tokens, none of
  // them crossing into the running history or other documents. O(len * D).
  void insert(TokenSpan seq);
  // Extends the running history (prompt, then generated tokens) with new_tokens, adding only
  // the windows that end in them: O(D) per token. append(a) then append(b) builds the same
  // trie as insert(a ++ b).
  void append(TokenSpan new_tokens);
  void append(Token token) { append(TokenSpan(&token, 1)); }
  // Forgets everything: nodes, running history and inserted documents.
  void clear();
  // Renumbers nodes depth-first, most frequent child first, and repacks child blocks, so walks
  // (best paths especially) read neighbouring memory: on a 100k-token history a cold lookup +
  // 16-token best path drops from ~2.3 us to ~1.3 us. Content is unchanged. Costs ~200 ns per
  // node on a freshly built trie (~40 ns when already compacted), so it pays off when many
  // queries follow a bulk load (long prompt, external documents). With auto_compact it also runs
  // after every eviction and at the end of an append()/insert() that leaves >= 16k nodes and
  // twice as many as the last compaction (amortised O(1) per node).
  void compact();

  // Longest suffix of context (at most min(max_suffix_len, D-1) tokens) that is in the trie
  // and has at least one continuation; shorter suffixes are tried when a longer one fails
  // (drop the first token, retry), as in the paper. A suffix seen only at the very end of the
  // history has no continuation and is skipped in favour of a shorter one that has.
  TrieMatch match(TokenSpan context, int max_suffix_len) const;
  // Children of the matched node, most frequent first; empty when nothing matches.
  std::vector<TokenCount> next_tokens(TokenSpan context, int max_suffix_len) const;

  // NextTokenSource: same as next_tokens.
  std::vector<TokenCount> next_token_counts(TokenSpan context, int max_suffix_len) const override;
  int append_next_token_counts(TokenSpan context, int max_suffix_len,
                               std::vector<TokenCount>& out) const override;

  // Most frequent single path of up to `depth` tokens: from the matched node follow the top
  // child; on reaching a node without children (depth limit or end of history) re-anchor by
  // matching the last max_suffix_len tokens of context ++ path and go on. Stops when nothing
  // matches.
  Tokens best_path(TokenSpan context, int max_suffix_len, int depth) const;
  // Frequency-ordered depth-first subtree below the matched node: pre-order, children most
  // frequent first, at most max_depth levels below the match and token_budget nodes.
  DraftSubtree extract_dfs(TokenSpan context, int max_suffix_len, int max_depth,
                           int token_budget) const;
  // Best-first subtree below the matched node: repeatedly takes the candidate with the highest
  // estimated probability (product of child.count / parent.count along the path; ties go to
  // the candidate discovered first, siblings in rank order). probs are non-increasing.
  DraftSubtree extract_best_first(TokenSpan context, int max_suffix_len, int max_depth,
                                  int token_budget) const;

  // Read access for tests and tools. children(kRoot) is unordered (see above).
  std::span<const TrieEdge> children(std::int32_t node) const;
  // Edge from node to its child for token; child == -1 if absent.
  TrieEdge edge(std::int32_t node, Token token) const;
  std::int32_t child(std::int32_t node, Token token) const { return edge(node, token).child; }
  // Windows inserted since the last clear or rebuild (the root's count).
  std::uint64_t total_windows() const { return root_count_; }
  int depth(std::int32_t node) const;

  std::size_t node_count() const { return nodes_.size(); }
  // Heap bytes held by the trie's buffers (capacities, not just sizes).
  std::size_t memory_bytes() const;
  // Throws std::logic_error describing the first violated invariant: index ranges, block
  // bookkeeping, child order, count relations, depth limit, hash index consistency.
  void check_integrity() const;

  const TrieOptions& options() const { return options_; }
  // How many times the node budget forced a rebuild.
  std::uint64_t evictions() const { return evictions_; }
  // Tokens of running history retained for rebuilding after an eviction.
  std::size_t retained_history() const { return history_.size(); }

 private:
  struct Node {
    TrieEdge top;                   // most frequent child (mirrors block[0] when size >= 2)
    std::int32_t block = -1;        // offset of the child block in edges_, -1 = none
    std::int32_t size = 0;          // number of children
    std::uint16_t depth = 0;        // tokens from the root
    std::uint8_t log_capacity = 0;  // the block holds 1 << log_capacity edges
  };
  struct Slot {
    std::uint64_t key = ~0ull;  // (node << 32 | token), ~0 = empty
    std::int32_t child = -1;    // child node for that key
    std::uint32_t count = 0;    // the child's count (mirrors its edge)
  };

  bool hashed(std::int32_t node) const;
  const Slot* hash_find(std::int32_t node, Token token) const;
  Slot* hash_find(std::int32_t node, Token token);
  void hash_put(std::int32_t node, const TrieEdge& edge);
  void hash_grow();
  std::int32_t allocate_block(int log_capacity);
  void free_block(std::int32_t offset, int log_capacity);
  // Finds or creates node's child for token and adds one window to it; returns the child.
  std::int32_t bump(std::int32_t node, Token token);
  std::int32_t add_child(std::int32_t node, Token token);
  // Counts one more window through edge `pos` of node's block and restores the order.
  void bump_block_edge(std::int32_t node, std::int32_t pos);
  // Adds one token to a set of open windows (active[i] = node of the window at depth i+1).
  void step(Token token, std::vector<std::int32_t>& active);
  bool needs_eviction() const;
  void evict();
  void reset_structure();
  void remember(Token token);
  void maybe_compact();

  TrieOptions options_;
  std::size_t keep_tokens_ = 0;                         // history kept for rebuilds (K)
  std::vector<Node> nodes_;                             // node pool, nodes_[0] is the root
  std::uint64_t root_count_ = 0;                        // windows since the last rebuild
  std::vector<TrieEdge> edges_;                         // child blocks of all nodes
  std::vector<std::vector<std::int32_t>> free_blocks_;  // freed block offsets per log2(size)
  std::vector<Slot> slots_;           // open-addressing hash of hashed nodes' children
  std::size_t slots_used_ = 0;        // occupied hash slots
  std::vector<std::int32_t> active_;  // open windows of the running history
  Tokens history_;                    // recent running history (K..2K tokens)
  std::uint64_t evictions_ = 0;       // rebuilds so far
  std::size_t compacted_nodes_ = 0;   // node count after the last compaction
};

}  // namespace reader
