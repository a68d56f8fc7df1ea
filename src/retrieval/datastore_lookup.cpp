// Datastore lookups: thin dispatch onto the width-templated DatastoreSearch.
#include "reader/datastore.h"
#include "retrieval/datastore_search.h"

namespace reader {

SuffixRange Datastore::match(TokenSpan context, int max_suffix_len) const {
  return detail::with_search(
      view(), [&](const auto& search) { return search.match(context, max_suffix_len); });
}

NextTokens Datastore::next_tokens(TokenSpan context, int max_suffix_len) const {
  NextTokens out;
  detail::with_search(view(), [&](const auto& search) {
    search.count(search.match(context, max_suffix_len), options_.sample_cap, out);
  });
  return out;
}

std::vector<TokenCount> Datastore::next_token_counts(TokenSpan context, int max_suffix_len) const {
  return next_tokens(context, max_suffix_len).counts;
}

void Datastore::append_next_token_counts(TokenSpan context, int max_suffix_len,
                                         std::vector<TokenCount>& out) const {
  const NextTokens next = next_tokens(context, max_suffix_len);
  out.insert(out.end(), next.counts.begin(), next.counts.end());
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
