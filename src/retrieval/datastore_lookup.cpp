// Datastore lookups: thin dispatch onto the width-templated DatastoreSearch.
#include <algorithm>

#include "reader/datastore.h"
#include "retrieval/datastore_search.h"

namespace reader {
namespace {

// The previous match() of this thread. SearchPath queries context, context + t1, ... (often
// cut to their last max_len tokens): when a query extends the previous one by a token, its
// longest match is the previous match plus that token whenever that occurs (it cannot be
// longer), found inside the previous range instead of by a search over lengths.
struct LastMatch {
  std::uint64_t owner = 0;  // Datastore::id_ of the query (0 = none)
  int max_len = 0;          // its max_suffix_len
  Tokens window;            // its context's last min(size, max_len) tokens
  SuffixRange range;        // its result
};
thread_local LastMatch last_match;

TokenSpan window_of(TokenSpan context, int max_len) {
  return context.last(std::min(context.size(), static_cast<std::size_t>(max_len)));
}

// Whether `prefix` (the new context minus its last token) provably has the previous match:
// a match depends only on the window, and the two windows agree on their last k tokens, so
// every length up to k occurs for both or neither. The previous match length l < k then
// carries over (length l+1 <= k fails for both); so does l == k when prefix's window is no
// longer than k (nothing longer to try).
bool has_previous_match(const LastMatch& last, TokenSpan prefix, int max_len) {
  const TokenSpan now = window_of(prefix, max_len);
  const std::size_t k = std::min(now.size(), last.window.size());
  if (!std::equal(now.end() - static_cast<std::ptrdiff_t>(k), now.end(),
                  last.window.end() - static_cast<std::ptrdiff_t>(k))) {
    return false;
  }
  const auto l = static_cast<std::size_t>(last.range.length);
  return l < k || (l == k && now.size() == k);
}

template <typename Search>
SuffixRange incremental_match(const Search& search, std::uint64_t id, TokenSpan context,
                              int max_len) {
  if (max_len <= 0) return {};
  LastMatch& last = last_match;
  SuffixRange r;
  if (last.owner == id && id != 0 && last.max_len == max_len && last.range.length > 0 &&
      last.range.length < max_len && !context.empty() && search.is_real(context.back()) &&
      has_previous_match(last, context.first(context.size() - 1), max_len)) {
    r = search.extend(last.range, context.back());  // empty: the match is shorter, search
  }
  if (r.empty()) r = search.match(context, max_len);
  const TokenSpan window = window_of(context, max_len);
  last.owner = id;
  last.max_len = max_len;
  last.window.assign(window.begin(), window.end());
  last.range = r;
  return r;
}

}  // namespace

SuffixRange Datastore::match(TokenSpan context, int max_suffix_len) const {
  return detail::with_search(view(), [&](const auto& search) {
    return incremental_match(search, id_, context, max_suffix_len);
  });
}

NextTokens Datastore::next_tokens(TokenSpan context, int max_suffix_len) const {
  NextTokens out;
  detail::with_search(view(), [&](const auto& search) {
    search.count(incremental_match(search, id_, context, max_suffix_len), options_.sample_cap, out);
  });
  return out;
}

std::vector<TokenCount> Datastore::next_token_counts(TokenSpan context, int max_suffix_len) const {
  return next_tokens(context, max_suffix_len).counts;
}

int Datastore::append_next_token_counts(TokenSpan context, int max_suffix_len,
                                        std::vector<TokenCount>& out) const {
  const NextTokens next = next_tokens(context, max_suffix_len);
  out.insert(out.end(), next.counts.begin(), next.counts.end());
  return next.counts.empty() ? 0 : next.match_len;
}

Tokens Datastore::extend_path(TokenSpan context, int max_suffix_len, int depth) const {
  return detail::with_search(view(), [&](const auto& search) {
    return search.extend_path(context, max_suffix_len, depth, options_.sample_cap);
  });
}

std::size_t Datastore::longest_match_from(TokenSpan needle) const {
  return detail::with_search(view(),
                             [&](const auto& search) { return search.longest_match_from(needle); });
}

}  // namespace reader
