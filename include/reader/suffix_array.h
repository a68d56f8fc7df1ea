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
// Measured with bench/bench_datastore.cpp (BM_BuildDatastore: DatastoreBuilder::write in a
// forked child, one core, 2 shared vCPUs; synthetic Zipf corpus with copied spans, vocab 49152,
// so divsufsort sorts 2-byte big-endian tokens). CPU seconds of write() (the suffix array is
// >95% of it) and peak builder memory (VmHWM growth, the builder's own document copy included):
//   tokens   SA-IS (ours)                  divsufsort
//   10M      2.5-2.7 s,  8.2 bytes/token   3.9-4.1 s,  16-18 bytes/token
//   100M     35-40 s,    8.2 bytes/token   47-54 s,    16 bytes/token
// kAuto therefore picks SA-IS: faster at both sizes and half the peak memory (divsufsort also
// needs 4 bytes per *byte* of encoded text, and the linked 32-bit library caps at 2^31 bytes).
enum class SuffixArrayAlgorithm {
  kAuto,        // the measured default: SA-IS (see above)
  kSais,        // our SA-IS over integer symbols: linear time, ~0.2 bytes/token of scratch
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
