// SA-IS suffix sorting (Nong, Zhang & Chan, "Two Efficient Algorithms for Linear Time Suffix
// Array Construction", 2011) for integer alphabets. Internal to build_suffix_array; a header so
// tests can also instantiate the 64-bit index path on small inputs.
//
// Memory: besides the text and the output, one bit per symbol of suffix types and the bucket
// arrays; the recursion lives inside the output array (reduced text in its tail, reduced suffix
// array in its head, bucket arrays in the gap between when they fit). The text is terminated by
// a virtual sentinel smaller than every symbol, so a proper prefix sorts before its extensions.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace reader::detail {

// Suffix types, one bit each: set = S-type (smaller than the next suffix), clear = L-type.
class SuffixTypes {
 public:
  explicit SuffixTypes(std::size_t n) : words_((n + 63) / 64, 0) {}
  bool is_s(std::size_t i) const { return (words_[i >> 6] >> (i & 63)) & 1u; }
  void set_s(std::size_t i) { words_[i >> 6] |= std::uint64_t{1} << (i & 63); }

 private:
  std::vector<std::uint64_t> words_;  // bit i = type of suffix i
};

// Bucket boundaries per symbol. Counts are cached when there is room (spare space inside the
// suffix array, or a small alphabet); otherwise they are recounted from the text before each
// use, trading a pass over the text for k entries of memory.
template <typename I, typename C>
class SaisBuckets {
 public:
  SaisBuckets(const C* text, I n, I k, I* spare, I spare_size) : text_(text), n_(n), k_(k) {
    if (k <= spare_size) {
      bkt_ = spare;
      spare += k;
      spare_size -= k;
    }
    if (k <= spare_size) counts_ = spare;
    acquire();
  }

  // Frees heap arrays before recursing so the deeper level can use the memory.
  void release() {
    if (!heap_bkt_.empty()) {
      std::vector<I>().swap(heap_bkt_);
      bkt_ = nullptr;
    }
    if (!heap_counts_.empty()) {
      std::vector<I>().swap(heap_counts_);
      counts_ = nullptr;
    }
  }

  // Re-allocates whatever release() freed and refreshes the cached counts.
  void acquire() {
    if (bkt_ == nullptr) {
      heap_bkt_.assign(static_cast<std::size_t>(k_), 0);
      bkt_ = heap_bkt_.data();
    }
    if (counts_ == nullptr && cache_on_heap()) {
      heap_counts_.assign(static_cast<std::size_t>(k_), 0);
      counts_ = heap_counts_.data();
    }
    if (counts_ != nullptr) count_into(counts_);
  }

  // Sets every bucket pointer to the first slot of its symbol's bucket.
  void heads() { fill(false); }
  // Sets every bucket pointer to one past the last slot of its symbol's bucket.
  void tails() { fill(true); }

  I& operator[](I symbol) { return bkt_[symbol]; }

 private:
  // A heap count cache costs k entries; worth it unless k is large next to n.
  bool cache_on_heap() const { return k_ <= std::max<I>(I{1} << 16, n_ / 8); }

  void count_into(I* out) const {
    std::fill(out, out + k_, I{0});
    for (I i = 0; i < n_; ++i) ++out[static_cast<I>(text_[i])];
  }

  void fill(bool end) {
    if (counts_ == nullptr) count_into(bkt_);  // bkt_ doubles as the counts
    const I* counts = counts_ != nullptr ? counts_ : bkt_;
    I sum = 0;
    for (I c = 0; c < k_; ++c) {
      const I count = counts[c];
      sum += count;
      bkt_[c] = end ? sum : sum - count;
    }
  }

  const C* text_;               // the symbols being bucketed
  I n_;                         // text length
  I k_;                         // alphabet size
  I* bkt_ = nullptr;            // working bucket pointers (spare space or heap)
  I* counts_ = nullptr;         // cached symbol counts, or null to recount
  std::vector<I> heap_bkt_;     // backing store when bkt_ is not in spare space
  std::vector<I> heap_counts_;  // backing store when counts_ is not in spare space
};

// Induced sorting: from the LMS suffixes already placed, sort all L-type suffixes (left to
// right scan), then all S-type suffixes (right to left scan).
template <typename I, typename C>
void sais_induce(const C* text, I* sa, I n, const SuffixTypes& types, SaisBuckets<I, C>& bkt) {
  bkt.heads();
  // The virtual sentinel is the smallest suffix; it induces suffix n-1 (always L-type).
  sa[bkt[static_cast<I>(text[n - 1])]++] = n - 1;
  for (I i = 0; i < n; ++i) {
    const I j = sa[i] - 1;
    if (j >= 0 && !types.is_s(static_cast<std::size_t>(j))) {
      sa[bkt[static_cast<I>(text[j])]++] = j;
    }
  }
  bkt.tails();
  for (I i = n - 1; i >= 0; --i) {
    const I j = sa[i] - 1;
    if (j >= 0 && types.is_s(static_cast<std::size_t>(j))) {
      sa[--bkt[static_cast<I>(text[j])]] = j;
    }
  }
}

// Sorts the suffixes of text[0, n) (symbols in [0, k)) into sa[0, n). `spare` points at
// `spare_size` entries of scratch space the caller does not need meanwhile (may be null).
// I must be a signed integer type able to hold n (-1 marks an empty slot).
template <typename I, typename C>
void sais(const C* text, I* sa, I n, I k, I* spare, I spare_size) {
  static_assert(std::is_signed_v<I>, "SA-IS uses -1 as the empty slot");
  constexpr I kEmpty = -1;
  if (n <= 0) return;
  if (n == 1) {
    sa[0] = 0;
    return;
  }

  SuffixTypes types(static_cast<std::size_t>(n));  // suffix n-1 is L: it beats the sentinel
  for (I i = n - 2; i >= 0; --i) {
    if (text[i] < text[i + 1] ||
        (text[i] == text[i + 1] && types.is_s(static_cast<std::size_t>(i + 1)))) {
      types.set_s(static_cast<std::size_t>(i));
    }
  }
  auto is_lms = [&types](I i) {
    return i > 0 && types.is_s(static_cast<std::size_t>(i)) &&
           !types.is_s(static_cast<std::size_t>(i - 1));
  };

  SaisBuckets<I, C> bkt(text, n, k, spare, spare_size);

  // Stage 1: sort the LMS substrings by inducing from LMS positions dropped at bucket tails.
  std::fill(sa, sa + n, kEmpty);
  bkt.tails();
  for (I i = 1; i < n; ++i) {
    if (is_lms(i)) sa[--bkt[static_cast<I>(text[i])]] = i;
  }
  sais_induce(text, sa, n, types, bkt);

  // Compact the sorted LMS positions into sa[0, m); m <= n/2 since LMS positions are >= 2 apart.
  I m = 0;
  for (I i = 0; i < n; ++i) {
    if (is_lms(sa[i])) sa[m++] = sa[i];
  }

  // Name the LMS substrings (equal substrings share a name) into sa[m + pos/2].
  std::fill(sa + m, sa + n, kEmpty);
  I names = 0;
  I prev = -1;
  for (I i = 0; i < m; ++i) {
    const I pos = sa[i];
    bool differ = false;
    for (I d = 0;; ++d) {
      if (prev < 0 || pos + d == n || prev + d == n || text[pos + d] != text[prev + d] ||
          types.is_s(static_cast<std::size_t>(pos + d)) !=
              types.is_s(static_cast<std::size_t>(prev + d))) {
        differ = true;  // reaching the sentinel also differs: it is unique
        break;
      }
      if (d > 0 && (is_lms(pos + d) || is_lms(prev + d))) break;  // both ended, all equal
    }
    if (differ) {
      ++names;
      prev = pos;
    }
    sa[m + pos / 2] = names - 1;
  }

  // Gather the names in text order into the tail: the reduced text s1 = sa[n-m, n).
  for (I i = n - 1, j = n - 1; i >= m; --i) {
    if (sa[i] != kEmpty) sa[j--] = sa[i];
  }
  I* reduced = sa + (n - m);

  // Stage 2: sort the reduced problem (recursing only while names repeat) into sa[0, m).
  if (names < m) {
    bkt.release();
    sais<I, I>(reduced, sa, m, names, sa + m, n - 2 * m);
    bkt.acquire();
  } else {
    for (I i = 0; i < m; ++i) sa[reduced[i]] = i;
  }

  // Stage 3: map reduced ranks back to LMS positions, seed them in order, induce the rest.
  for (I i = 1, j = 0; i < n; ++i) {
    if (is_lms(i)) reduced[j++] = i;
  }
  for (I i = 0; i < m; ++i) sa[i] = reduced[sa[i]];
  std::fill(sa + m, sa + n, kEmpty);
  bkt.tails();
  for (I i = m - 1; i >= 0; --i) {
    const I pos = sa[i];
    sa[i] = kEmpty;
    sa[--bkt[static_cast<I>(text[pos])]] = pos;
  }
  sais_induce(text, sa, n, types, bkt);
}

}  // namespace reader::detail
