// Suffix-array construction over token ids: the index behind the long-term datastore.
// A suffix array lists the start positions of all suffixes of a text in lexicographic order,
// so every n-gram's occurrences form one contiguous range found by binary search (paper, §4).
// Entries are uint32: one datastore holds at most 2^32 - 1 tokens (separators included).
#pragma once

#include <cstdint>
#include <vector>

#include "reader/tokens.h"

namespace reader {

// Which construction algorithm build_suffix_array uses.
//
// Measured on one core (bench/bench_datastore.cpp, synthetic Zipf corpus with copied spans,
// vocab 49152, tokens stored 2 bytes wide for divsufsort):
//   tokens   SA-IS (ours)          divsufsort (bytes)
//   10M      TODO                  TODO
//   100M     TODO                  TODO
// kAuto picks TODO.
enum class SuffixArrayAlgorithm {
  kAuto,        // the measured default (see above); falls back when the other is unavailable
  kSais,        // our SA-IS over integer symbols: linear time, ~4 bytes/token beyond the output
  kDivsufsort,  // libdivsufsort over big-endian byte-encoded tokens (only if compiled in)
};

// True when this build links libdivsufsort (READER_HAVE_DIVSUFSORT).
bool divsufsort_available();

// Suffix array of `text`: suffix order is lexicographic on token values, and a suffix that is a
// proper prefix of another sorts first. Every token must lie in [0, alphabet_size); throws
// std::invalid_argument otherwise and std::length_error when text.size() >= 2^32.
// kDivsufsort throws std::runtime_error when unavailable or when the byte-encoded text would
// exceed 2^31 - 1 bytes (the linked 32-bit libdivsufsort's limit).
std::vector<std::uint32_t> build_suffix_array(
    TokenSpan text, std::uint32_t alphabet_size,
    SuffixArrayAlgorithm algorithm = SuffixArrayAlgorithm::kAuto);

}  // namespace reader
