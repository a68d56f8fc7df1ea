// Datastore header (de)serialisation and the checks Datastore::open relies on.
#include "retrieval/datastore_format.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "retrieval/xxhash64.h"

namespace reader::detail {
namespace {

static_assert(std::endian::native == std::endian::little,
              "the datastore is stored little-endian and mapped without conversion");

template <typename T>
void put(std::uint8_t* out, std::size_t offset, T value) {
  std::memcpy(out + offset, &value, sizeof value);
}

template <typename T>
T get(const std::uint8_t* in, std::size_t offset) {
  T value;
  std::memcpy(&value, in + offset, sizeof value);
  return value;
}

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what) {
  throw std::runtime_error(fmt::format("datastore {}: {}", path.string(), what));
}

}  // namespace

std::uint32_t token_width_for(std::uint32_t vocab_size) {
  if (vocab_size < (1u << 8)) return 1;
  if (vocab_size < (1u << 16)) return 2;
  if (vocab_size < (1u << 24)) return 3;
  return 4;
}

DatastoreHeader layout_header(std::uint64_t token_count, std::uint64_t document_count,
                              std::uint32_t vocab_size, std::uint64_t tokenizer_fingerprint,
                              const std::string& tokenizer_name) {
  DatastoreHeader h;
  h.token_count = token_count;
  h.document_count = document_count;
  h.vocab_size = vocab_size;
  h.separator = vocab_size;
  h.tokenizer_fingerprint = tokenizer_fingerprint;
  h.tokenizer_name = tokenizer_name;
  h.token_width = token_width_for(vocab_size);
  h.tokens_offset = kDatastoreHeaderSize;
  h.suffix_array_offset = align8(h.tokens_offset + token_count * h.token_width);
  h.first_index_offset = align8(h.suffix_array_offset + token_count * sizeof(std::uint32_t));
  h.file_size = h.first_index_offset + (std::uint64_t{vocab_size} + 2) * sizeof(std::uint32_t);
  return h;
}

std::array<std::uint8_t, kDatastoreHeaderSize> encode_header(const DatastoreHeader& h) {
  if (h.tokenizer_name.size() >= kTokenizerNameBytes) {
    throw std::invalid_argument(fmt::format("tokenizer name '{}' is longer than {} bytes",
                                            h.tokenizer_name, kTokenizerNameBytes - 1));
  }
  std::array<std::uint8_t, kDatastoreHeaderSize> out{};
  std::memcpy(out.data(), kDatastoreMagic, sizeof kDatastoreMagic);
  put(out.data(), kOffVersion, h.format_version);
  put(out.data(), kOffHeaderSize, h.header_size);
  put(out.data(), kOffTokenCount, h.token_count);
  put(out.data(), kOffDocumentCount, h.document_count);
  put(out.data(), kOffVocabSize, h.vocab_size);
  put(out.data(), kOffSeparator, h.separator);
  put(out.data(), kOffFingerprint, h.tokenizer_fingerprint);
  std::memcpy(out.data() + kOffTokenizerName, h.tokenizer_name.data(), h.tokenizer_name.size());
  put(out.data(), kOffTokenWidth, h.token_width);
  put(out.data(), kOffReserved, std::uint32_t{0});
  put(out.data(), kOffTokensOffset, h.tokens_offset);
  put(out.data(), kOffSuffixArrayOffset, h.suffix_array_offset);
  put(out.data(), kOffFirstIndexOffset, h.first_index_offset);
  put(out.data(), kOffFileSize, h.file_size);
  put(out.data(), kOffBodyChecksum, h.body_checksum);
  put(out.data(), kOffHeaderChecksum, Xxh64::hash(out.data(), kOffHeaderChecksum));
  return out;
}

DatastoreHeader decode_and_validate_header(const std::uint8_t* bytes, std::uint64_t size,
                                           const std::filesystem::path& path) {
  const std::size_t magic_seen = static_cast<std::size_t>(std::min<std::uint64_t>(size, 8));
  if (magic_seen > 0 && std::memcmp(bytes, kDatastoreMagic, magic_seen) != 0) {
    fail(path, "not a reader datastore (bad magic)");
  }
  if (size < kDatastoreHeaderSize) {
    fail(path, fmt::format("truncated: expected at least {} bytes (the header), file has {}",
                           kDatastoreHeaderSize, size));
  }
  DatastoreHeader h;
  h.format_version = get<std::uint32_t>(bytes, kOffVersion);
  if (h.format_version != kDatastoreFormatVersion) {
    fail(path, fmt::format("datastore format version {}, this build reads {}", h.format_version,
                           kDatastoreFormatVersion));
  }
  h.header_size = get<std::uint32_t>(bytes, kOffHeaderSize);
  if (h.header_size != kDatastoreHeaderSize) {
    fail(path, fmt::format("corrupt header: header size {} (expected {})", h.header_size,
                           kDatastoreHeaderSize));
  }
  if (get<std::uint64_t>(bytes, kOffHeaderChecksum) != Xxh64::hash(bytes, kOffHeaderChecksum)) {
    fail(path, "corrupt header: header checksum mismatch");
  }
  h.token_count = get<std::uint64_t>(bytes, kOffTokenCount);
  h.document_count = get<std::uint64_t>(bytes, kOffDocumentCount);
  h.vocab_size = get<std::uint32_t>(bytes, kOffVocabSize);
  h.separator = get<std::uint32_t>(bytes, kOffSeparator);
  h.tokenizer_fingerprint = get<std::uint64_t>(bytes, kOffFingerprint);
  const char* name = reinterpret_cast<const char*>(bytes + kOffTokenizerName);
  h.tokenizer_name.assign(name, strnlen(name, kTokenizerNameBytes));
  h.token_width = get<std::uint32_t>(bytes, kOffTokenWidth);
  h.tokens_offset = get<std::uint64_t>(bytes, kOffTokensOffset);
  h.suffix_array_offset = get<std::uint64_t>(bytes, kOffSuffixArrayOffset);
  h.first_index_offset = get<std::uint64_t>(bytes, kOffFirstIndexOffset);
  h.file_size = get<std::uint64_t>(bytes, kOffFileSize);
  h.body_checksum = get<std::uint64_t>(bytes, kOffBodyChecksum);

  if (h.token_count == 0 || h.token_count > std::numeric_limits<std::uint32_t>::max() ||
      h.document_count == 0 || h.document_count > h.token_count || h.vocab_size == 0 ||
      h.vocab_size >= static_cast<std::uint32_t>(std::numeric_limits<std::int32_t>::max()) ||
      h.separator != h.vocab_size || h.tokenizer_name.size() >= kTokenizerNameBytes) {
    fail(path, "corrupt header: counts out of range");
  }
  const DatastoreHeader expected = layout_header(h.token_count, h.document_count, h.vocab_size,
                                                 h.tokenizer_fingerprint, h.tokenizer_name);
  if (h.token_width != expected.token_width || h.tokens_offset != expected.tokens_offset ||
      h.suffix_array_offset != expected.suffix_array_offset ||
      h.first_index_offset != expected.first_index_offset || h.file_size != expected.file_size) {
    fail(path, "corrupt header: inconsistent section layout");
  }
  if (size < h.file_size) {
    fail(path, fmt::format("truncated: expected {} bytes, file has {}", h.file_size, size));
  }
  if (size > h.file_size) {
    fail(path, fmt::format("unexpected trailing data: expected {} bytes, file has {}", h.file_size,
                           size));
  }
  return h;
}

}  // namespace reader::detail
