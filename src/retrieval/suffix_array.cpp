// build_suffix_array: input validation and dispatch between SA-IS and libdivsufsort.
#include "reader/suffix_array.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <limits>
#include <stdexcept>

#include "retrieval/sais.h"

#if defined(READER_HAVE_DIVSUFSORT)
#include <divsufsort.h>
#endif

namespace reader {
namespace {

constexpr std::uint64_t kMaxTokens = std::numeric_limits<std::uint32_t>::max();

// Validates the text and returns its largest symbol + 1 (the alphabet actually used).
std::uint32_t used_alphabet(TokenSpan text, std::uint32_t alphabet_size) {
  if (text.size() > kMaxTokens) {
    throw std::length_error(fmt::format("suffix array: {} tokens exceed the uint32 limit of {}",
                                        text.size(), kMaxTokens));
  }
  Token max_token = -1;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const Token t = text[i];
    if (t < 0 || static_cast<std::uint32_t>(t) >= alphabet_size) {
      throw std::invalid_argument(
          fmt::format("suffix array: token id {} at position {} is outside the alphabet [0, {})", t,
                      i, alphabet_size));
    }
    max_token = std::max(max_token, t);
  }
  return static_cast<std::uint32_t>(max_token + 1);
}

std::vector<std::uint32_t> sais_suffix_array(TokenSpan text, std::uint32_t k) {
  const std::size_t n = text.size();
  if (k > n && n > 0) {
    // Bucket arrays cost O(k): when most symbols are unused (a small text over a large
    // vocabulary), rank-compress the alphabet first; the order, hence the result, is unchanged.
    Tokens symbols(text.begin(), text.end());
    std::sort(symbols.begin(), symbols.end());
    symbols.erase(std::unique(symbols.begin(), symbols.end()), symbols.end());
    Tokens ranked(n);
    for (std::size_t i = 0; i < n; ++i) {
      ranked[i] = static_cast<Token>(std::lower_bound(symbols.begin(), symbols.end(), text[i]) -
                                     symbols.begin());
    }
    return sais_suffix_array(ranked, static_cast<std::uint32_t>(symbols.size()));
  }
  std::vector<std::uint32_t> sa(n);
  if (n <= static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) {
    // int32_t may alias uint32_t storage (corresponding signed type), so SA-IS works in place
    // and the result needs no copy: final entries are all non-negative.
    detail::sais<std::int32_t, Token>(text.data(), reinterpret_cast<std::int32_t*>(sa.data()),
                                      static_cast<std::int32_t>(n), static_cast<std::int32_t>(k),
                                      nullptr, 0);
  } else {
    // Beyond 2^31 tokens the -1 marker needs a wider index: sort in int64, then narrow.
    std::vector<std::int64_t> wide(n);
    detail::sais<std::int64_t, Token>(text.data(), wide.data(), static_cast<std::int64_t>(n),
                                      static_cast<std::int64_t>(k), nullptr, 0);
    for (std::size_t i = 0; i < n; ++i) sa[i] = static_cast<std::uint32_t>(wide[i]);
  }
  return sa;
}

#if defined(READER_HAVE_DIVSUFSORT)
// Big-endian fixed-width byte encoding keeps token order equal to byte order, so the
// token-aligned byte suffixes, in byte order, are the token suffix array.
std::vector<std::uint32_t> divsufsort_suffix_array(TokenSpan text, std::uint32_t k) {
  const std::size_t n = text.size();
  const std::size_t width = k <= (1u << 8) ? 1 : k <= (1u << 16) ? 2 : k <= (1u << 24) ? 3 : 4;
  const std::size_t bytes = n * width;
  if (bytes > static_cast<std::size_t>(INT32_MAX)) {
    throw std::runtime_error(fmt::format(
        "divsufsort: {} tokens x {} bytes exceed the 32-bit libdivsufsort limit of {} bytes", n,
        width, INT32_MAX));
  }
  if (n == 0) return {};
  std::vector<std::uint8_t> encoded(bytes);
  for (std::size_t i = 0; i < n; ++i) {
    const auto t = static_cast<std::uint32_t>(text[i]);
    for (std::size_t b = 0; b < width; ++b) {
      encoded[i * width + b] = static_cast<std::uint8_t>(t >> (8 * (width - 1 - b)));
    }
  }
  std::vector<std::uint32_t> sa(bytes);
  auto* byte_sa = reinterpret_cast<saidx_t*>(sa.data());
  if (divsufsort(encoded.data(), byte_sa, static_cast<saidx_t>(bytes)) != 0) {
    throw std::runtime_error("divsufsort failed");
  }
  std::vector<std::uint8_t>().swap(encoded);
  std::size_t kept = 0;
  for (std::size_t i = 0; i < bytes; ++i) {
    const auto pos = static_cast<std::uint32_t>(byte_sa[i]);
    if (pos % width == 0) sa[kept++] = pos / static_cast<std::uint32_t>(width);
  }
  sa.resize(kept);
  sa.shrink_to_fit();
  return sa;
}
#endif

}  // namespace

bool divsufsort_available() {
#if defined(READER_HAVE_DIVSUFSORT)
  return true;
#else
  return false;
#endif
}

std::vector<std::uint32_t> build_suffix_array(TokenSpan text, std::uint32_t alphabet_size,
                                              SuffixArrayAlgorithm algorithm) {
  const std::uint32_t k = used_alphabet(text, alphabet_size);
  switch (algorithm) {
    case SuffixArrayAlgorithm::kAuto:
    case SuffixArrayAlgorithm::kSais:
      return sais_suffix_array(text, k);
    case SuffixArrayAlgorithm::kDivsufsort:
#if defined(READER_HAVE_DIVSUFSORT)
      return divsufsort_suffix_array(text, k);
#else
      throw std::runtime_error("divsufsort requested but this build lacks libdivsufsort");
#endif
  }
  throw std::invalid_argument("unknown suffix array algorithm");
}

}  // namespace reader
