// Encoding, decoding and validation of the datastore file header (the layout is documented in
// include/reader/datastore.h). Shared by the builder, Datastore::open and the tests.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

namespace reader::detail {

inline constexpr char kDatastoreMagic[8] = {'R', 'E', 'A', 'D', 'E', 'R', 'D', 'S'};
inline constexpr std::uint32_t kDatastoreFormatVersion = 1;
inline constexpr std::uint32_t kDatastoreHeaderSize = 256;
inline constexpr std::size_t kTokenizerNameBytes = 64;  // NUL-padded, so 63 usable

// Byte offsets of the header fields.
inline constexpr std::size_t kOffVersion = 8;
inline constexpr std::size_t kOffHeaderSize = 12;
inline constexpr std::size_t kOffTokenCount = 16;
inline constexpr std::size_t kOffDocumentCount = 24;
inline constexpr std::size_t kOffVocabSize = 32;
inline constexpr std::size_t kOffSeparator = 36;
inline constexpr std::size_t kOffFingerprint = 40;
inline constexpr std::size_t kOffTokenizerName = 48;
inline constexpr std::size_t kOffTokenWidth = 112;
inline constexpr std::size_t kOffReserved = 116;
inline constexpr std::size_t kOffTokensOffset = 120;
inline constexpr std::size_t kOffSuffixArrayOffset = 128;
inline constexpr std::size_t kOffFirstIndexOffset = 136;
inline constexpr std::size_t kOffFileSize = 144;
inline constexpr std::size_t kOffBodyChecksum = 152;
inline constexpr std::size_t kOffHeaderChecksum = 160;  // covers bytes [0, kOffHeaderChecksum)

// The header fields, decoded.
struct DatastoreHeader {
  std::uint32_t format_version = kDatastoreFormatVersion;  // layout version of the file
  std::uint32_t header_size = kDatastoreHeaderSize;        // bytes before the tokens section
  std::uint64_t token_count = 0;                           // stored tokens, separators included
  std::uint64_t document_count = 0;                        // documents (= separators)
  std::uint32_t vocab_size = 0;                            // real token ids are below this
  std::uint32_t separator = 0;                             // document-end token id (= vocab_size)
  std::uint64_t tokenizer_fingerprint = 0;                 // caller-defined tokenizer hash
  std::string tokenizer_name;                              // at most 63 bytes
  std::uint32_t token_width = 0;                           // bytes per stored token
  std::uint64_t tokens_offset = 0;                         // start of the tokens section
  std::uint64_t suffix_array_offset = 0;                   // start of the suffix array section
  std::uint64_t first_index_offset = 0;                    // start of the first-token index section
  std::uint64_t file_size = 0;                             // total bytes
  std::uint64_t body_checksum = 0;                         // XXH64 of [header_size, file_size)
};

// Fewest bytes holding every id up to and including the separator (= vocab_size).
std::uint32_t token_width_for(std::uint32_t vocab_size);

// Rounds up to the 8-byte section alignment.
constexpr std::uint64_t align8(std::uint64_t x) { return (x + 7) & ~std::uint64_t{7}; }

// A header with the layout fields (width, offsets, file size) computed for these counts.
DatastoreHeader layout_header(std::uint64_t token_count, std::uint64_t document_count,
                              std::uint32_t vocab_size, std::uint64_t tokenizer_fingerprint,
                              const std::string& tokenizer_name);

// Serialises the header, filling in the header checksum.
std::array<std::uint8_t, kDatastoreHeaderSize> encode_header(const DatastoreHeader& header);

// Checks the first `size` bytes of a file (the whole mapping) and decodes its header:
// magic, version, header checksum, size against the header, and a layout that matches
// layout_header for the stored counts. Throws std::runtime_error mentioning `path`.
DatastoreHeader decode_and_validate_header(const std::uint8_t* bytes, std::uint64_t size,
                                           const std::filesystem::path& path);

}  // namespace reader::detail
