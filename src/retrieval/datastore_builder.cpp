// DatastoreBuilder: collects documents, sorts suffixes, writes the file atomically.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "reader/datastore.h"
#include "retrieval/atomic_file.h"
#include "retrieval/datastore_format.h"
#include "retrieval/xxhash64.h"

namespace reader {
namespace {

constexpr std::uint64_t kMaxStoredTokens = std::numeric_limits<std::uint32_t>::max();

// Appends to an AtomicFile through a buffer, hashing every byte on the way (the body checksum
// is computed while writing, never by re-reading the file).
class HashingWriter {
 public:
  explicit HashingWriter(detail::AtomicFile& file) : file_(file) { buffer_.reserve(kBufferSize); }

  void write(const void* data, std::size_t len) {
    const auto* p = static_cast<const std::uint8_t*>(data);
    while (len > 0) {
      const std::size_t take = std::min(len, kBufferSize - buffer_.size());
      buffer_.insert(buffer_.end(), p, p + take);
      p += take;
      len -= take;
      if (buffer_.size() == kBufferSize) flush();
    }
  }

  // Zero padding up to absolute file offset `offset`.
  void pad_to(std::uint64_t offset) {
    static constexpr std::uint8_t kZeros[8] = {};
    const std::uint64_t at = file_.size() + buffer_.size();
    if (offset < at || offset - at > sizeof kZeros) throw std::logic_error("bad section offset");
    write(kZeros, static_cast<std::size_t>(offset - at));
  }

  void flush() {
    hash_.update(buffer_.data(), buffer_.size());
    file_.append(buffer_.data(), buffer_.size());
    buffer_.clear();
  }

  std::uint64_t digest() const { return hash_.digest(); }

 private:
  static constexpr std::size_t kBufferSize = std::size_t{1} << 20;
  detail::AtomicFile& file_;          // destination
  detail::Xxh64 hash_;                // running body checksum
  std::vector<std::uint8_t> buffer_;  // bytes not yet appended
};

// Restores the in-memory document-end markers however write() exits.
class SeparatorSwap {
 public:
  SeparatorSwap(Tokens& text, Token marker, Token separator)
      : text_(text), marker_(marker), separator_(separator) {
    std::replace(text_.begin(), text_.end(), marker_, separator_);
  }
  ~SeparatorSwap() { std::replace(text_.begin(), text_.end(), separator_, marker_); }
  SeparatorSwap(const SeparatorSwap&) = delete;
  SeparatorSwap& operator=(const SeparatorSwap&) = delete;

 private:
  Tokens& text_;     // the builder's text
  Token marker_;     // in-memory document end
  Token separator_;  // on-disk document end
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

DatastoreBuilder::DatastoreBuilder(BuilderOptions options) : options_(std::move(options)) {}

void DatastoreBuilder::reserve(std::size_t tokens) { text_.reserve(tokens); }

void DatastoreBuilder::add_document(TokenSpan doc) {
  const std::uint64_t ordinal = documents_ + skipped_empty_;
  if (doc.empty()) {
    ++skipped_empty_;
    empty_ordinals_.push_back(ordinal);
    return;
  }
  if (doc.size() > options_.max_document_tokens) {
    throw std::length_error(fmt::format("document {} has {} tokens, over the limit of {}", ordinal,
                                        doc.size(), options_.max_document_tokens));
  }
  if (text_.size() + doc.size() + 1 > kMaxStoredTokens) {
    throw std::length_error(fmt::format("document {}: the datastore would exceed {} stored tokens",
                                        ordinal, kMaxStoredTokens));
  }
  for (std::size_t i = 0; i < doc.size(); ++i) {
    if (doc[i] < 0) {
      throw std::invalid_argument(
          fmt::format("document {}: negative token id {} at position {}", ordinal, doc[i], i));
    }
  }
  text_.insert(text_.end(), doc.begin(), doc.end());
  text_.push_back(kDocumentEnd);
  ++documents_;
}

BuildSummary DatastoreBuilder::write(const std::filesystem::path& out, const DatastoreMeta& meta) {
  const auto start = std::chrono::steady_clock::now();
  auto report = [this](double fraction, std::string_view stage) {
    if (options_.progress) options_.progress(fraction, stage);
  };
  report(0.0, "validating");
  const std::uint32_t vocab = meta.vocab_size;
  if (vocab == 0 || vocab >= static_cast<std::uint32_t>(std::numeric_limits<Token>::max())) {
    throw std::invalid_argument(fmt::format("vocab_size {} is out of range", vocab));
  }
  if (meta.tokenizer_name.size() >= detail::kTokenizerNameBytes) {
    throw std::invalid_argument(fmt::format("tokenizer name '{}' is longer than {} bytes",
                                            meta.tokenizer_name, detail::kTokenizerNameBytes - 1));
  }
  if (documents_ == 0) {
    throw std::runtime_error(fmt::format(
        "empty corpus: no tokens to index ({} empty documents skipped)", skipped_empty_));
  }
  std::uint64_t doc = 0;
  for (const Token t : text_) {
    if (t == kDocumentEnd) {
      ++doc;
    } else if (static_cast<std::uint32_t>(t) >= vocab) {
      std::uint64_t ordinal = doc;  // count the skipped empty documents back in
      for (const std::uint64_t e : empty_ordinals_) ordinal += e <= ordinal ? 1 : 0;
      throw std::invalid_argument(
          fmt::format("document {}: token id {} is >= vocab_size {}", ordinal, t, vocab));
    }
  }

  const auto separator = static_cast<Token>(vocab);
  SeparatorSwap swap(text_, kDocumentEnd, separator);
  report(0.02, "suffix array");
  const auto sa_start = std::chrono::steady_clock::now();
  const std::vector<std::uint32_t> sa = build_suffix_array(text_, vocab + 1, options_.algorithm);
  const double sa_seconds = seconds_since(sa_start);

  // First-token index: index[c] = number of stored tokens smaller than c.
  std::vector<std::uint32_t> index(std::size_t{vocab} + 2, 0);
  for (const Token t : text_) ++index[static_cast<std::size_t>(t) + 1];
  for (std::size_t c = 1; c < index.size(); ++c) index[c] += index[c - 1];

  detail::DatastoreHeader header = detail::layout_header(
      text_.size(), documents_, vocab, meta.tokenizer_fingerprint, meta.tokenizer_name);
  detail::AtomicFile file(out);
  const std::array<std::uint8_t, detail::kDatastoreHeaderSize> placeholder{};
  file.append(placeholder.data(), placeholder.size());
  HashingWriter body(file);

  report(0.8, "writing tokens");
  const std::uint32_t width = header.token_width;
  std::vector<std::uint8_t> chunk;
  constexpr std::size_t kChunkTokens = std::size_t{1} << 18;
  for (std::size_t begin = 0; begin < text_.size(); begin += kChunkTokens) {
    const std::size_t end = std::min(text_.size(), begin + kChunkTokens);
    chunk.resize((end - begin) * width);
    for (std::size_t i = begin; i < end; ++i) {
      const auto v = static_cast<std::uint32_t>(text_[i]);
      std::memcpy(&chunk[(i - begin) * width], &v, width);  // little-endian low bytes
    }
    body.write(chunk.data(), chunk.size());
  }
  body.pad_to(header.suffix_array_offset);

  constexpr std::size_t kChunkEntries = std::size_t{1} << 22;
  for (std::size_t begin = 0; begin < sa.size(); begin += kChunkEntries) {
    report(0.85 + 0.13 * static_cast<double>(begin) / static_cast<double>(sa.size()),
           "writing suffix array");
    const std::size_t len = std::min(sa.size() - begin, kChunkEntries);
    body.write(sa.data() + begin, len * sizeof(std::uint32_t));
  }
  body.pad_to(header.first_index_offset);
  body.write(index.data(), index.size() * sizeof(std::uint32_t));
  body.flush();
  if (file.size() != header.file_size) throw std::logic_error("datastore layout mismatch");

  header.body_checksum = body.digest();
  const auto encoded = detail::encode_header(header);
  file.overwrite(encoded.data(), encoded.size(), 0);
  report(0.98, "syncing");
  file.commit();
  report(1.0, "done");

  BuildSummary summary;
  summary.path = out;
  summary.token_count = header.token_count;
  summary.document_count = documents_;
  summary.skipped_empty_documents = skipped_empty_;
  summary.file_bytes = header.file_size;
  summary.token_width = width;
  summary.suffix_array_seconds = sa_seconds;
  summary.total_seconds = seconds_since(start);
  return summary;
}

}  // namespace reader
