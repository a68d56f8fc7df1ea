// SearchPath (paper, Algorithm SearchPath) and its tree variant: merge next-token counts from
// every source, rank them, extend the context with the winner(s).
#include <algorithm>

#include "reader/search.h"

namespace reader {
namespace {

bool ranks_before(const TokenCount& a, const TokenCount& b) {
  return a.count > b.count || (a.count == b.count && a.token < b.token);
}

// Buffers reused across levels so the per-level work allocates nothing once warmed up.
class Merger {
 public:
  explicit Merger(std::span<const NextTokenSource* const> sources) : sources_(sources) {
    candidates_.reserve(256);
  }

  // Fills candidates() with the per-token sums of all sources' counts for context.
  // Only the sources with the longest matched suffix contribute: a long match in the trie
  // (this very text) is better evidence than a datastore's counts for a one-token suffix.
  void collect(TokenSpan context, int max_suffix_len) {
    candidates_.clear();
    match_len_ = 0;
    sources_mask_ = 0;
    own_top_.assign(sources_.size(), -1);
    int contributing = 0;
    for (std::size_t k = 0; k < sources_.size(); ++k) {
      const NextTokenSource* source = sources_[k];
      const std::size_t before = candidates_.size();
      const int len = source->append_next_token_counts(context, max_suffix_len, candidates_);
      if (candidates_.size() == before) continue;
      own_top_[k] = std::min_element(candidates_.begin() + static_cast<std::ptrdiff_t>(before),
                                     candidates_.end(), ranks_before)
                        ->token;
      if (len > match_len_) {  // a longer match replaces what shorter ones contributed
        candidates_.erase(candidates_.begin(),
                          candidates_.begin() + static_cast<std::ptrdiff_t>(before));
        match_len_ = len;
        contributing = 1;
        sources_mask_ = 1u << std::min<std::size_t>(k, 31);
      } else if (len < match_len_) {
        candidates_.resize(before);
      } else {
        ++contributing;
        sources_mask_ |= 1u << std::min<std::size_t>(k, 31);
      }
    }
    if (contributing <= 1) return;  // one source lists each token once already
    std::sort(candidates_.begin(), candidates_.end(),
              [](const TokenCount& a, const TokenCount& b) { return a.token < b.token; });
    std::size_t out = 0;
    for (std::size_t i = 0; i < candidates_.size(); ++i) {
      if (out > 0 && candidates_[out - 1].token == candidates_[i].token) {
        candidates_[out - 1].count += candidates_[i].count;
      } else {
        candidates_[out++] = candidates_[i];
      }
    }
    candidates_.resize(out);
  }

  // Best candidate with count >= min_count, or nullptr.
  const TokenCount* top(std::uint64_t min_count) const {
    const TokenCount* best = nullptr;
    for (const TokenCount& c : candidates_) {
      if (c.count >= min_count && (best == nullptr || ranks_before(c, *best))) best = &c;
    }
    return best;
  }

  std::vector<TokenCount>& candidates() { return candidates_; }
  int match_len() const { return match_len_; }
  std::uint32_t sources_mask() const { return sources_mask_; }
  // Sources whose own best guess, at their own longest match, is `token`.
  std::uint32_t agreeing(Token token) const {
    std::uint32_t mask = 0;
    for (std::size_t k = 0; k < own_top_.size(); ++k)
      if (own_top_[k] == static_cast<std::int64_t>(token))
        mask |= 1u << std::min<std::size_t>(k, 31);
    return mask;
  }
  std::uint64_t total() const {
    std::uint64_t t = 0;
    for (const TokenCount& c : candidates_) t += c.count;
    return t;
  }

 private:
  std::span<const NextTokenSource* const> sources_;  // queried in order
  std::vector<TokenCount> candidates_;               // merged counts of the current level
  int match_len_ = 0;                                // suffix length the candidates come from
  std::uint32_t sources_mask_ = 0;                   // which sources matched at match_len_
  std::vector<std::int64_t> own_top_;                // per source: its own top token, -1 none
};

std::uint64_t min_count_of(const SearchOptions& opts) {
  return static_cast<std::uint64_t>(std::max(1, opts.min_count));
}

}  // namespace

Tokens search_path(TokenSpan context, const SearchOptions& opts,
                   std::span<const NextTokenSource* const> sources) {
  Tokens path;
  for (const SearchStep& s : search_path_steps(context, opts, sources)) path.push_back(s.token);
  return path;
}

std::vector<SearchStep> search_path_steps(TokenSpan context, const SearchOptions& opts,
                                          std::span<const NextTokenSource* const> sources) {
  std::vector<SearchStep> path;
  if (opts.depth <= 0 || opts.max_suffix_len <= 0 || sources.empty()) return path;
  const auto window = static_cast<std::size_t>(opts.max_suffix_len);
  const auto depth = static_cast<std::size_t>(opts.depth);
  path.reserve(depth);
  // Only the last max_suffix_len tokens can ever be matched: copy just those.
  Tokens work;
  work.reserve(window + depth);
  const TokenSpan tail = context.last(std::min(window, context.size()));
  work.assign(tail.begin(), tail.end());
  Merger merger(sources);
  const std::uint64_t min_count = min_count_of(opts);
  while (path.size() < depth) {
    merger.collect(TokenSpan(work).last(std::min(window, work.size())), opts.max_suffix_len);
    const TokenCount* best = merger.top(min_count);
    if (best == nullptr) break;
    path.push_back({best->token, merger.match_len(), best->count, merger.total(),
                    merger.sources_mask(), merger.agreeing(best->token)});
    work.push_back(best->token);
  }
  return path;
}

DraftSubtree search_tree(TokenSpan context, const SearchOptions& opts, int top_k, int token_budget,
                         std::span<const NextTokenSource* const> sources) {
  DraftSubtree out;
  if (opts.depth <= 0 || opts.max_suffix_len <= 0 || top_k <= 0 || token_budget <= 0 ||
      sources.empty()) {
    return out;
  }
  const auto window = static_cast<std::size_t>(opts.max_suffix_len);
  const auto budget = static_cast<std::size_t>(token_budget);
  const std::uint64_t min_count = min_count_of(opts);
  std::vector<int> depths;  // depth of each node of out (1 = child of the context)
  Tokens work;              // context suffix ++ path to the node being expanded
  work.reserve(window + static_cast<std::size_t>(opts.depth));
  Tokens path;
  Merger merger(sources);
  // Nodes are appended in BFS order, so out itself is the queue; -1 is the context.
  for (std::int64_t cur = -1; cur < static_cast<std::int64_t>(out.size()) && out.size() < budget;
       ++cur) {
    const int level = cur < 0 ? 0 : depths[static_cast<std::size_t>(cur)];
    if (level >= opts.depth) continue;
    path.clear();
    for (std::int64_t v = cur; v >= 0; v = out.parents[static_cast<std::size_t>(v)]) {
      path.push_back(out.tokens[static_cast<std::size_t>(v)]);
    }
    std::reverse(path.begin(), path.end());
    const std::size_t from_path = std::min(window, path.size());
    const std::size_t from_context = std::min(window - from_path, context.size());
    work.assign(context.end() - static_cast<std::ptrdiff_t>(from_context), context.end());
    work.insert(work.end(), path.end() - static_cast<std::ptrdiff_t>(from_path), path.end());
    merger.collect(work, opts.max_suffix_len);
    std::vector<TokenCount>& cands = merger.candidates();
    std::uint64_t total = 0;
    for (const TokenCount& c : cands) total += c.count;
    const std::size_t k = std::min(static_cast<std::size_t>(top_k), cands.size());
    std::partial_sort(cands.begin(), cands.begin() + static_cast<std::ptrdiff_t>(k), cands.end(),
                      ranks_before);
    const double parent_prob = cur < 0 ? 1.0 : out.probs[static_cast<std::size_t>(cur)];
    for (std::size_t i = 0; i < k && out.size() < budget; ++i) {
      if (cands[i].count < min_count) break;
      out.push(cands[i].token, static_cast<std::int32_t>(cur), cands[i].count,
               parent_prob * (static_cast<double>(cands[i].count) / static_cast<double>(total)));
      depths.push_back(level + 1);
    }
  }
  return out;
}

}  // namespace reader
