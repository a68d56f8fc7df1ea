// Suffix-array search over a mapped datastore, templated on the stored token width so the
// inner loops are plain loads. Internal to Datastore (datastore_lookup.cpp) and its integrity
// check; the public semantics are documented in include/reader/datastore.h.
//
// Invariants relied on (checked at open): the text ends with a separator and the separator id
// (= vocab) exceeds every real token, so a comparison against a context (real tokens only)
// stops at a document end before it can run past the text, and suffixes sharing a prefix form
// one range ordered by the token that follows.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "reader/datastore.h"
#include "retrieval/count_cache.h"

namespace reader::detail {

// Raw pointers into a mapped datastore's sections.
struct DatastoreView {
  const std::uint8_t* tokens = nullptr;        // token_count x width bytes, little-endian
  const std::uint32_t* suffixes = nullptr;     // suffix array, token_count entries
  const std::uint32_t* first_index = nullptr;  // vocab + 2 entries
  std::uint64_t token_count = 0;               // stored tokens, separators included
  std::uint32_t vocab = 0;                     // = the separator id
  std::uint32_t width = 0;                     // bytes per stored token
  const CountCache* cache = nullptr;           // memo for large ranges' counts, or null
};

template <int W>
inline std::uint32_t load_token(const std::uint8_t* tokens, std::uint64_t pos) {
  const std::uint8_t* p = tokens + pos * W;
  if constexpr (W == 1) {
    return p[0];
  } else if constexpr (W == 2) {
    std::uint16_t v;
    std::memcpy(&v, p, sizeof v);
    return v;
  } else if constexpr (W == 3) {
    return std::uint32_t{p[0]} | (std::uint32_t{p[1]} << 8) | (std::uint32_t{p[2]} << 16);
  } else {
    std::uint32_t v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
}

template <int W>
class DatastoreSearch {
 public:
  explicit DatastoreSearch(const DatastoreView& view) : v_(view) {}

  std::uint32_t token(std::uint64_t pos) const { return load_token<W>(v_.tokens, pos); }

  // Suffix-array entry; an entry past the text can only come from a corrupt file opened
  // without checksum verification, and is refused rather than read through.
  std::uint64_t suffix(std::uint64_t rank) const {
    const std::uint32_t pos = v_.suffixes[rank];
    if (pos >= v_.token_count) [[unlikely]] {
      throw std::runtime_error("datastore corrupt: suffix array entry out of range");
    }
    return pos;
  }

  // Binary search is latency-bound (suffix-array entry, then the text it points to): fetching
  // both candidate next midpoints' entries now overlaps the next entry miss with this text miss.
  void prefetch_next_mids(std::uint64_t lo, std::uint64_t mid, std::uint64_t hi) const {
    __builtin_prefetch(v_.suffixes + (lo + (mid - lo) / 2));
    if (hi > mid + 1) __builtin_prefetch(v_.suffixes + (mid + 1 + (hi - mid - 1) / 2));
  }

  bool is_real(Token t) const { return t >= 0 && static_cast<std::uint32_t>(t) < v_.vocab; }

  // Suffix-array range of the suffixes starting with token t (a real token). Like suffix(), a
  // range outside the suffix array can only come from a corrupt file opened without checksum
  // verification, and is refused (found by fuzz/fuzz_datastore: it was read through).
  SuffixRange first_token_range(Token t) const {
    const auto c = static_cast<std::size_t>(t);
    const std::uint32_t lo = v_.first_index[c], hi = v_.first_index[c + 1];
    if (lo > hi || hi > v_.token_count) [[unlikely]] {
      throw std::runtime_error("datastore corrupt: first-token index out of range");
    }
    return {lo, hi, 1};
  }

  // Compares the suffix at pos with pattern[0, m), from offset d (the first d are known equal).
  // Returns the sign (suffix < pattern: -1, differs above: +1, starts with pattern: 0) and the
  // common prefix length.
  struct Comparison {
    int sign;  // -1, 0, +1 as above
    int lcp;   // tokens in common
  };
  Comparison compare(std::uint64_t pos, const Token* pattern, int m, int d) const {
    for (; d < m; ++d) {
      const std::uint32_t a = token(pos + static_cast<std::uint64_t>(d));
      const auto b = static_cast<std::uint32_t>(pattern[d]);
      if (a != b) return {a < b ? -1 : 1, d};
    }
    return {0, m};
  }

  // First rank in [lo, hi) whose suffix is >= pattern[0, m); every suffix in [lo, hi) shares
  // pattern[0, known). `found` says whether that suffix starts with the pattern. Binary search
  // with the mlr heuristic: comparisons resume at the smaller of the two bounds' common prefix.
  std::uint64_t lower_bound(const Token* pattern, int m, std::uint64_t lo, std::uint64_t hi,
                            int known, bool& found) const {
    int lcp_lo = known;
    int lcp_hi = known;
    found = false;
    while (lo < hi) {
      const std::uint64_t mid = lo + (hi - lo) / 2;
      prefetch_next_mids(lo, mid, hi);
      const Comparison c = compare(suffix(mid), pattern, m, std::min(lcp_lo, lcp_hi));
      if (c.sign < 0) {
        lo = mid + 1;
        lcp_lo = c.lcp;
      } else {
        hi = mid;
        lcp_hi = c.lcp;
        found = c.lcp == m;
      }
    }
    return lo;
  }

  // First rank in [lo, hi) whose suffix does not start with pattern[0, m), given that none in
  // [lo, hi) is smaller than the pattern and all share pattern[0, known).
  std::uint64_t upper_bound(const Token* pattern, int m, std::uint64_t lo, std::uint64_t hi,
                            int known) const {
    int lcp_lo = known;
    int lcp_hi = known;
    while (lo < hi) {
      const std::uint64_t mid = lo + (hi - lo) / 2;
      prefetch_next_mids(lo, mid, hi);
      const Comparison c = compare(suffix(mid), pattern, m, std::min(lcp_lo, lcp_hi));
      if (c.sign == 0) {
        lo = mid + 1;
        lcp_lo = m;
      } else {
        hi = mid;
        lcp_hi = c.lcp;
      }
    }
    return lo;
  }

  // End of the run of suffixes starting with pattern[0, m), given that the one at `lo` does:
  // exponential search from lo, so a small range costs O(log size), not O(log hi - lo).
  std::uint64_t gallop_end(const Token* pattern, int m, std::uint64_t lo, std::uint64_t hi,
                           int known) const {
    std::uint64_t a = lo, b = lo, step = 1;  // a matches; b is the first known not to (or hi)
    while (true) {
      b = a + step;
      if (b >= hi) {
        b = hi;
        break;
      }
      if (compare(suffix(b), pattern, m, known).sign != 0) break;
      a = b;
      step *= 2;
    }
    return upper_bound(pattern, m, a + 1, b, known);
  }

  // The full range of suffixes starting with pattern[0, m) (m >= 1, real tokens).
  SuffixRange find(const Token* pattern, int m) const {
    const SuffixRange first = first_token_range(pattern[0]);
    bool found = false;
    const std::uint64_t lo = lower_bound(pattern, m, first.lo, first.hi, 1, found);
    if (!found) return {};
    return {lo, gallop_end(pattern, m, lo, first.hi, 1), m};
  }

  // Token following the suffix at `rank` after `offset` matched tokens.
  std::uint32_t next_at(std::uint64_t rank, int offset) const {
    return token(suffix(rank) + static_cast<std::uint64_t>(offset));
  }

  // Sub-range of r (all sharing r.length tokens) whose next token is t: r extended by t.
  SuffixRange extend(const SuffixRange& r, Token t) const {
    const auto target = static_cast<std::uint32_t>(t);
    std::uint64_t lo = r.lo, hi = r.hi;
    while (lo < hi) {  // first with next >= t
      const std::uint64_t mid = lo + (hi - lo) / 2;
      prefetch_next_mids(lo, mid, hi);
      if (next_at(mid, r.length) < target) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    if (lo == r.hi || next_at(lo, r.length) != target) return {};
    // Gallop to the end of t's block: O(log block) rather than O(log range).
    std::uint64_t a = lo, b = lo, step = 1;  // a is in the block; b is past it (or r.hi)
    while (true) {
      b = a + step;
      if (b >= r.hi) {
        b = r.hi;
        break;
      }
      if (next_at(b, r.length) != target) break;
      a = b;
      step *= 2;
    }
    while (b - a > 1) {
      const std::uint64_t mid = a + (b - a) / 2;
      if (next_at(mid, r.length) == target) {
        a = mid;
      } else {
        b = mid;
      }
    }
    return {lo, b, r.length + 1};
  }

  // Longest suffix of context (<= max_len tokens, real tokens only) that occurs.
  SuffixRange match(TokenSpan context, int max_len) const {
    int avail = 0;
    while (avail < max_len && static_cast<std::size_t>(avail) < context.size() &&
           is_real(context[context.size() - 1 - static_cast<std::size_t>(avail)])) {
      ++avail;
    }
    if (avail == 0) return {};
    const Token* end = context.data() + context.size();
    const SuffixRange one = first_token_range(end[-1]);
    if (one.empty()) return {};
    if (avail == 1) return one;

    // Occurrence is monotone in the length (a suffix of an occurring string occurs), so the
    // longest length is found by binary search; try the longest first, the common case in
    // repetitive text. Only the winner needs its upper bound.
    auto probe = [&](int len, std::uint64_t& lo) {
      const SuffixRange first = first_token_range(end[-len]);
      bool found = false;
      lo = lower_bound(end - len, len, first.lo, first.hi, 1, found);
      return found;
    };
    int good = 1;
    std::uint64_t good_lo = one.lo;
    std::uint64_t lo = 0;
    if (probe(avail, lo)) {
      good = avail;
      good_lo = lo;
    } else {
      int bad = avail;
      while (bad - good > 1) {
        const int mid = good + (bad - good) / 2;
        if (probe(mid, lo)) {
          good = mid;
          good_lo = lo;
        } else {
          bad = mid;
        }
      }
    }
    if (good == 1) return one;
    const Token* pattern = end - good;
    const SuffixRange first = first_token_range(pattern[0]);
    return {good_lo, gallop_end(pattern, good, good_lo, first.hi, 1), good};
  }

  // Next-token counts over range r (see Datastore::next_tokens). The range is sorted by the
  // next token, so counting is run-length encoding. A small pilot sample decides how:
  //  - few distinct tokens: gallop over the runs, exact in O(runs * log) dependent probes;
  //  - otherwise, or when galloping overruns its budget: a linear scan when the range fits
  //    under the cap (exact), else an evenly strided sample of `cap` occurrences.
  // Linear and sampled reads are batched with prefetches, so cache misses overlap.
  void count(const SuffixRange& r, std::uint64_t cap, NextTokens& out) const {
    const bool memo = v_.cache != nullptr && r.size() >= kCacheFrom && r.length < (1 << 20);
    if (memo && v_.cache->find(r, out)) return;
    count_uncached(r, cap, out);
    if (memo) v_.cache->insert(r, out);
  }

  void count_uncached(const SuffixRange& r, std::uint64_t cap, NextTokens& out) const {
    out.counts.clear();
    out.match_len = r.length;
    out.range_size = r.size();
    out.sampled = false;
    out.examined = 0;
    if (r.empty()) return;
    const std::uint64_t size = r.size();
    cap = std::max<std::uint64_t>(cap, 1);
    std::uint64_t resume = r.lo;  // where exact counting continues after galloping
    if (size > kPilotBelow && few_distinct(r)) {
      const std::uint64_t budget = std::max<std::uint64_t>(std::min(size, cap) / 4, 128);
      resume = count_gallop(r, budget, out.counts);
    }
    if (resume < r.hi) {
      if (size <= cap) {
        count_strided(r, resume, r.hi - resume, r.hi - resume, out.counts);
      } else {
        out.counts.clear();
        count_strided(r, r.lo, size, cap, out.counts);
        out.sampled = true;
      }
    }
    out.examined = out.sampled ? cap : size;
    // Runs arrive in ascending token order, so a stable sort by count keeps ties token-ascending.
    std::stable_sort(out.counts.begin(), out.counts.end(),
                     [](const TokenCount& a, const TokenCount& b) { return a.count > b.count; });
  }

  // Greedy extension (see Datastore::extend_path).
  Tokens extend_path(TokenSpan context, int max_len, int depth, std::uint64_t cap) const {
    Tokens path;
    if (max_len <= 0 || depth <= 0) return path;
    SuffixRange r = match(context, max_len);
    Tokens window(context.end() - std::min<std::size_t>(context.size(), max_len), context.end());
    NextTokens next;
    while (static_cast<int>(path.size()) < depth && r.length > 0) {
      count(r, cap, next);
      if (next.counts.empty()) break;
      const Token t = next.counts.front().token;
      path.push_back(t);
      window.push_back(t);
      // The longest match of context+t is exactly min(r.length + 1, max_len) tokens: longer
      // would contradict r being the longest match of context.
      if (r.length < max_len) {
        r = extend(r, t);
      } else {
        r = find(window.data() + window.size() - max_len, max_len);
      }
    }
    return path;
  }

  // Longest prefix of needle that occurs: one binary search for the needle; the longest
  // common prefix is with one of the two suffixes around its insertion point.
  std::size_t longest_match_from(TokenSpan needle) const {
    int m = 0;
    const int limit = static_cast<int>(std::min<std::size_t>(needle.size(), 1u << 30));
    while (m < limit && is_real(needle[static_cast<std::size_t>(m)])) ++m;
    if (m == 0) return 0;
    const SuffixRange first = first_token_range(needle[0]);
    if (first.empty()) return 0;
    bool found = false;
    const std::uint64_t at = lower_bound(needle.data(), m, first.lo, first.hi, 1, found);
    if (found) return static_cast<std::size_t>(m);
    int best = 1;
    if (at < first.hi) best = std::max(best, compare(suffix(at), needle.data(), m, 1).lcp);
    if (at > first.lo) best = std::max(best, compare(suffix(at - 1), needle.data(), m, 1).lcp);
    return static_cast<std::size_t>(best);
  }

 private:
  void push_run(std::vector<TokenCount>& counts, std::uint32_t t, std::uint64_t n) const {
    if (!counts.empty() && counts.back().token == static_cast<Token>(t)) {
      counts.back().count += n;
    } else {
      counts.push_back({static_cast<Token>(t), n});
    }
  }

  // A stored token above the separator can only come from a corrupt file opened without
  // checksum verification; counting it would hand callers an id outside the vocabulary, and
  // extend_path would index the first-token index with it (found by fuzz/fuzz_datastore).
  [[noreturn]] static void corrupt_token() {
    throw std::runtime_error("datastore corrupt: stored token out of range");
  }

  static constexpr std::uint64_t kCacheFrom = 512;  // smaller ranges are cheap to recount
  static constexpr std::uint64_t kPilotBelow = 64;  // smaller ranges are simply scanned
  static constexpr std::uint64_t kPilot = 32;       // pilot sample size
  static constexpr int kBatch = 32;                 // occurrences read per prefetch batch

  // Pilot: do `kPilot` evenly strided occurrences show few distinct next tokens?
  bool few_distinct(const SuffixRange& r) const {
    std::vector<TokenCount> pilot;
    count_strided(r, r.lo, r.size(), kPilot, pilot);
    return pilot.size() <= kPilot / 4;
  }

  // Run-length counts of the next tokens at `samples` evenly strided ranks of
  // [from, from + span) (every rank when samples == span), stopping at the separators.
  void count_strided(const SuffixRange& r, std::uint64_t from, std::uint64_t span,
                     std::uint64_t samples, std::vector<TokenCount>& counts) const {
    std::uint64_t pos[kBatch];
    for (std::uint64_t j = 0; j < samples; j += kBatch) {
      const int batch = static_cast<int>(std::min<std::uint64_t>(kBatch, samples - j));
      for (int k = 0; k < batch; ++k) {
        const auto offset = static_cast<std::uint64_t>(
            static_cast<unsigned __int128>(j + static_cast<std::uint64_t>(k)) * span / samples);
        pos[k] = suffix(from + offset) + static_cast<std::uint64_t>(r.length);
        __builtin_prefetch(v_.tokens + pos[k] * W);
      }
      for (int k = 0; k < batch; ++k) {
        const std::uint32_t t = token(pos[k]);
        if (t >= v_.vocab) [[unlikely]] {
          if (t == v_.vocab) return;  // separators sort last: the rest are document ends
          corrupt_token();
        }
        push_run(counts, t, 1);
      }
    }
  }

  // Counts whole runs until `budget` probes are spent; returns where it stopped (r.hi = done).
  std::uint64_t count_gallop(const SuffixRange& r, std::uint64_t budget,
                             std::vector<TokenCount>& counts) const {
    std::uint64_t probes = 0;
    std::uint64_t i = r.lo;
    while (i < r.hi) {
      if (probes >= budget) return i;
      const std::uint32_t t = next_at(i, r.length);
      ++probes;
      if (t >= v_.vocab) [[unlikely]] {
        if (t == v_.vocab) return r.hi;
        corrupt_token();
      }
      std::uint64_t a = i, b = i, step = 1;  // next(a) == t; b: first known different (or hi)
      while (true) {
        b = a + step;
        if (b >= r.hi) {
          b = r.hi;
          break;
        }
        ++probes;
        if (next_at(b, r.length) != t) break;
        a = b;
        step *= 2;
      }
      while (b - a > 1) {
        const std::uint64_t mid = a + (b - a) / 2;
        ++probes;
        if (next_at(mid, r.length) == t)
          a = mid;
        else
          b = mid;
      }
      push_run(counts, t, b - i);
      i = b;
    }
    return r.hi;
  }

  DatastoreView v_;  // the mapped sections
};

// Calls f with the DatastoreSearch matching the view's token width.
template <typename F>
decltype(auto) with_search(const DatastoreView& view, F&& f) {
  switch (view.width) {
    case 1:
      return f(DatastoreSearch<1>(view));
    case 2:
      return f(DatastoreSearch<2>(view));
    case 3:
      return f(DatastoreSearch<3>(view));
    default:
      return f(DatastoreSearch<4>(view));
  }
}

}  // namespace reader::detail
