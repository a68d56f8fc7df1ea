// SearchPath (paper, Algorithm "SearchPath"): greedy retrieval drafting over several sources of
// next-token statistics at once (the per-sequence trie and the shared suffix-array datastore).
// Each level merges the sources' counts for the current context, drafts the most frequent token
// and extends the context with it. Everything here is model-free and works on token ids.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "reader/draft_subtree.h"
#include "reader/tokens.h"

namespace reader {

// A source of next-token statistics for a context (the trie, the suffix-array datastore).
// Implementations must be safe to call concurrently through const methods: the batch search
// runs one sequence per thread over shared sources.
class NextTokenSource {
 public:
  virtual ~NextTokenSource() = default;
  // Counts of tokens seen after the longest matched suffix (<= max_suffix_len) of context; empty
  // if none. Each token appears at most once.
  virtual std::vector<TokenCount> next_token_counts(TokenSpan context,
                                                    int max_suffix_len) const = 0;
  // Same as next_token_counts but appends to `out`, so hot loops can reuse one buffer, and
  // returns the length of the context suffix matched (0: none). Override it when the source
  // can fill the buffer without building a temporary vector.
  virtual int append_next_token_counts(TokenSpan context, int max_suffix_len,
                                       std::vector<TokenCount>& out) const {
    const std::vector<TokenCount> counts = next_token_counts(context, max_suffix_len);
    out.insert(out.end(), counts.begin(), counts.end());
    return counts.empty() ? 0 : 1;
  }
};

struct SearchOptions {
  int max_suffix_len = 8;  // longest context suffix a source may match
  int depth = 16;          // most tokens drafted along one path
  int min_count = 1;       // candidates whose merged count is below this are ignored
};

// Greedy SearchPath: at each level merge all sources' counts (summed per token), rank by count
// descending with ties broken by lower token id, append the top token and continue from the
// extended context. Stops when no candidate reaches min_count or after opts.depth tokens.
Tokens search_path(TokenSpan context, const SearchOptions& opts,
                   std::span<const NextTokenSource* const> sources);

// One level of a SearchPath: the token drafted and the evidence behind it.
struct SearchStep {
  Token token = 0;             // drafted token
  int match_len = 0;           // context suffix length the winning sources matched
  std::uint64_t count = 0;     // merged count of the token
  std::uint64_t total = 0;     // merged count of all candidates at this level
  std::uint32_t sources = 0;   // bit k: sources[k] matched the context at match_len
  std::uint32_t agreeing = 0;  // bit k: sources[k]'s own top (at its own longest match) is token
};
// search_path with the evidence per level (what the cost-aware tree builder weighs).
std::vector<SearchStep> search_path_steps(TokenSpan context, const SearchOptions& opts,
                                          std::span<const NextTokenSource* const> sources);

// Breadth-first tree variant: every node gets up to top_k children (same merged ranking, same
// min_count), levels down to opts.depth, at most token_budget nodes in total. probs[i] is the
// product over the path of (merged count / total merged count at that level).
DraftSubtree search_tree(TokenSpan context, const SearchOptions& opts, int top_k, int token_budget,
                         std::span<const NextTokenSource* const> sources);

// search_path for every context, one sequence per worker (the caller plus threads-1 std::jthread
// workers; threads <= 1 runs inline). Results are in the order of contexts and identical to
// calling search_path one by one. The sources' const methods must be thread-safe.
std::vector<Tokens> search_path_batch(std::span<const Tokens> contexts, const SearchOptions& opts,
                                      std::span<const NextTokenSource* const> sources, int threads);

}  // namespace reader
