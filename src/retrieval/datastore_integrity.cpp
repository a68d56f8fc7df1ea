// Datastore::check_integrity: the deep O(n) consistency check behind tests and the CLI.
#include <fmt/format.h>

#include <stdexcept>
#include <vector>

#include "reader/datastore.h"
#include "retrieval/datastore_search.h"

namespace reader {
namespace {

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what) {
  throw std::runtime_error(fmt::format("datastore {}: integrity: {}", path.string(), what));
}

}  // namespace

void Datastore::check_integrity() const {
  detail::with_search(view(), [this](const auto& search) {
    const std::uint64_t n = token_count_;
    const std::uint32_t sep = meta_.vocab_size;

    // Tokens: in range, one separator per document, and the text ends with one.
    std::uint64_t separators = 0;
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::uint32_t t = search.token(i);
      if (t > sep) fail(path_, fmt::format("token {} at position {} exceeds the separator", t, i));
      separators += t == sep ? 1 : 0;
    }
    if (separators != document_count_) {
      fail(path_, fmt::format("{} separators for {} documents", separators, document_count_));
    }
    if (search.token(n - 1) != sep) fail(path_, "the text does not end with a separator");

    // Suffix array: a permutation of [0, n) ...
    std::vector<bool> seen(n, false);
    for (std::uint64_t r = 0; r < n; ++r) {
      const std::uint32_t p = suffixes_[r];
      if (p >= n || seen[p])
        fail(path_, fmt::format("suffix array entry {} = {} is invalid", r, p));
      seen[p] = true;
    }

    // First-token index: monotone from 0 to n, and every rank's suffix starts with the token
    // whose bucket holds the rank (so the buckets are exactly the first-token groups).
    if (first_index_[0] != 0 || first_index_[std::size_t{sep} + 1] != n) {
      fail(path_, "first-token index does not span the suffix array");
    }
    std::uint32_t c = 0;
    for (std::uint64_t r = 0; r < n; ++r) {
      while (first_index_[c + 1] <= r) {
        if (first_index_[c + 1] < first_index_[c]) fail(path_, "first-token index not monotone");
        ++c;
      }
      if (search.token(suffixes_[r]) != c) {
        fail(path_, fmt::format("rank {} starts with token {} but lies in the bucket of {}", r,
                                search.token(suffixes_[r]), c));
      }
    }
    for (; c <= sep; ++c) {
      if (first_index_[c + 1] < first_index_[c]) fail(path_, "first-token index not monotone");
    }
    // ... in suffix order: adjacent pairs, compared on up to kCompare tokens.
    constexpr std::uint64_t kAllPairsUpTo = std::uint64_t{1} << 20;
    constexpr std::uint64_t kCompare = 256;
    const std::uint64_t pairs = n - 1;
    const std::uint64_t stride = pairs <= kAllPairsUpTo ? 1 : pairs / kAllPairsUpTo;
    for (std::uint64_t r = 0; r + 1 < n; r += stride) {
      const std::uint64_t a = suffixes_[r], b = suffixes_[r + 1];
      bool ordered = false;
      for (std::uint64_t d = 0; d < kCompare; ++d) {
        if (a + d == n) {  // a ended first: a proper prefix sorts first
          ordered = true;
          break;
        }
        if (b + d == n) break;
        const std::uint32_t x = search.token(a + d), y = search.token(b + d);
        if (x != y) {
          ordered = x < y;
          break;
        }
        if (d + 1 == kCompare) ordered = true;  // equal as far as checked
      }
      if (!ordered) {
        fail(path_, fmt::format("suffixes at ranks {} and {} (positions {}, {}) are out of order",
                                r, r + 1, a, b));
      }
    }
  });
}

}  // namespace reader
