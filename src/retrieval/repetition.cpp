// Self-repetition metric via the longest-previous-factor (LPF) array of prompt # response $:
// a suffix array (prefix doubling), its LCP array (Kasai), then for each suffix the nearest
// suffixes in lexicographic order that start earlier in the text (PSV/NSV with a stack), whose
// LCPs bound every earlier occurrence. The unique separator # keeps prompt occurrences inside
// the prompt; the unique terminator $ keeps comparisons in range.
#include "reader/repetition.h"

#include <algorithm>
#include <utility>

namespace reader {
namespace {

using Index = std::uint32_t;  // text positions and ranks; texts stay far below 4G tokens

// Suffix array of s (values in [0, alphabet), s.back() the unique smallest value) by sorting
// cyclic shifts with doubling and counting sort: O(n log n).
std::vector<Index> suffix_array(const std::vector<Index>& s, std::size_t alphabet) {
  const std::size_t n = s.size();
  std::vector<Index> p(n), c(n), pn(n), cn(n);
  std::vector<Index> cnt(std::max(alphabet, n), 0);
  for (const Index x : s) ++cnt[x];
  for (std::size_t i = 1; i < alphabet; ++i) cnt[i] += cnt[i - 1];
  for (std::size_t i = n; i-- > 0;) p[--cnt[s[i]]] = static_cast<Index>(i);
  Index classes = 1;
  c[p[0]] = 0;
  for (std::size_t i = 1; i < n; ++i) {
    if (s[p[i]] != s[p[i - 1]]) ++classes;
    c[p[i]] = classes - 1;
  }
  // Round h sorts by the first 2h symbols; the terminator makes cyclic order = suffix order.
  for (std::size_t h = 1; h < n && classes < n; h <<= 1) {
    for (std::size_t i = 0; i < n; ++i) pn[i] = static_cast<Index>((p[i] + n - h) % n);
    std::fill(cnt.begin(), cnt.begin() + classes, 0);
    for (std::size_t i = 0; i < n; ++i) ++cnt[c[pn[i]]];
    for (std::size_t i = 1; i < classes; ++i) cnt[i] += cnt[i - 1];
    for (std::size_t i = n; i-- > 0;) p[--cnt[c[pn[i]]]] = pn[i];
    cn[p[0]] = 0;
    classes = 1;
    for (std::size_t i = 1; i < n; ++i) {
      if (c[p[i]] != c[p[i - 1]] || c[(p[i] + h) % n] != c[(p[i - 1] + h) % n]) ++classes;
      cn[p[i]] = classes - 1;
    }
    c.swap(cn);
  }
  return p;
}

// lcp[r] = LCP of the suffixes at ranks r-1 and r (lcp[0] = 0). Kasai et al., O(n).
std::vector<Index> lcp_array(const std::vector<Index>& s, const std::vector<Index>& sa) {
  const std::size_t n = s.size();
  std::vector<Index> rank(n), lcp(n, 0);
  for (std::size_t r = 0; r < n; ++r) rank[sa[r]] = static_cast<Index>(r);
  std::size_t h = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (rank[i] == 0) {
      h = 0;
      continue;
    }
    const std::size_t j = sa[rank[i] - 1];
    while (i + h < n && j + h < n && s[i + h] == s[j + h]) ++h;
    lcp[rank[i]] = static_cast<Index>(h);
    if (h > 0) --h;
  }
  return lcp;
}

// Visits ranks in the order given by `order(k) -> {rank, LCP with the previously visited rank}`
// and raises best[text position] to the LCP with the nearest previously visited rank whose
// suffix starts earlier in the text: the best earlier occurrence on that side, since LCP only
// shrinks with distance in SA order. The stack holds ranks with increasing text positions, each
// with its LCP to the entry above, so popping folds ranges in O(1): O(n) overall.
template <typename Order>
void nearest_earlier(const std::vector<Index>& sa, Order order, std::vector<Index>& best) {
  struct Entry {
    std::size_t rank;  // stacked suffix
    Index link;        // LCP with the entry pushed above it
  };
  std::vector<Entry> stack;
  for (std::size_t k = 0; k < sa.size(); ++k) {
    const auto [r, lcp_prev] = order(k);
    Index run = lcp_prev;  // LCP of the stack top with r
    while (!stack.empty() && sa[stack.back().rank] > sa[r]) {
      stack.pop_back();
      if (!stack.empty()) run = std::min(run, stack.back().link);
    }
    if (!stack.empty()) {
      best[sa[r]] = std::max(best[sa[r]], run);
      stack.back().link = run;
    }
    stack.push_back(Entry{r, 0});
  }
}

}  // namespace

std::vector<std::size_t> longest_previous_factors(TokenSpan prompt, TokenSpan response) {
  // Text: prompt # response $, with tokens renamed to dense ranks 2.. so # = 1 and $ = 0 are
  // unique and smallest.
  Tokens alphabet(prompt.begin(), prompt.end());
  alphabet.insert(alphabet.end(), response.begin(), response.end());
  std::sort(alphabet.begin(), alphabet.end());
  alphabet.erase(std::unique(alphabet.begin(), alphabet.end()), alphabet.end());
  const auto rename = [&](Token t) {
    return static_cast<Index>(std::lower_bound(alphabet.begin(), alphabet.end(), t) -
                              alphabet.begin() + 2);
  };
  std::vector<Index> text;
  text.reserve(prompt.size() + response.size() + 2);
  for (const Token t : prompt) text.push_back(rename(t));
  text.push_back(1);
  for (const Token t : response) text.push_back(rename(t));
  text.push_back(0);

  const std::vector<Index> sa = suffix_array(text, alphabet.size() + 2);
  const std::vector<Index> lcp = lcp_array(text, sa);
  const std::size_t n = text.size();
  std::vector<Index> best(n, 0);
  // Left to right: the previous rank is r-1 (LCP lcp[r]); right to left: r+1 (LCP lcp[r+1]).
  nearest_earlier(
      sa,
      [&](std::size_t k) {
        return std::pair<std::size_t, Index>{k, k == 0 ? 0 : lcp[k]};
      },
      best);
  nearest_earlier(
      sa,
      [&](std::size_t k) {
        const std::size_t r = n - 1 - k;
        return std::pair<std::size_t, Index>{r, r + 1 < n ? lcp[r + 1] : 0};
      },
      best);

  std::vector<std::size_t> factors(response.size());
  const std::size_t offset = prompt.size() + 1;
  for (std::size_t i = 0; i < response.size(); ++i) {
    factors[i] = best[offset + i];
  }
  return factors;
}

RepetitionStats self_repetition(TokenSpan prompt, TokenSpan response,
                                const ExternalMatcher* external) {
  RepetitionStats stats;
  stats.response_tokens = response.size();
  if (response.empty()) return stats;
  const std::vector<std::size_t> factors = longest_previous_factors(prompt, response);
  for (std::size_t ptr = 0; ptr < response.size();) {
    std::size_t len = factors[ptr];
    if (external != nullptr) {
      len = std::max(len, std::min(external->longest_match_from(response.subspan(ptr)),
                                   response.size() - ptr));
    }
    ++stats.advances;
    stats.matched_tokens += len;
    stats.longest_match = std::max(stats.longest_match, len);
    ptr += std::max<std::size_t>(len, 1);
  }
  stats.metric = static_cast<double>(stats.response_tokens) / static_cast<double>(stats.advances);
  return stats;
}

}  // namespace reader
