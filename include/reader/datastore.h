// The long-term datastore (paper, section 4): a large static corpus of token ids indexed by a
// suffix array, memory-mapped read-only and shared between processes. It answers "which tokens
// followed the longest suffix of this context, and how often" by binary search, feeding
// SearchPath alongside the per-sequence trie, and "how long a prefix of this text occurs" for
// the self-repetition metric. DatastoreBuilder writes the file once; Datastore opens it.
//
// File format, version 1 (all integers little-endian; sections 8-byte aligned):
//   offset size  field
//   0      8     magic "READERDS"
//   8      4     format_version (1)
//   12     4     header_size (256)
//   16     8     token_count: stored tokens, one separator per document included (< 2^32)
//   24     8     document_count
//   32     4     vocab_size: document token ids are in [0, vocab_size)
//   36     4     separator token id (= vocab_size, so it sorts after every real token)
//   40     8     tokenizer_fingerprint (caller-defined hash of the tokenizer)
//   48     64    tokenizer_name, UTF-8, NUL-padded (at most 63 bytes)
//   112    4     token_width: bytes per stored token, the fewest that hold vocab_size (1..4)
//   116    4     reserved (0)
//   120    8     tokens_offset (= header_size)
//   128    8     suffix_array_offset
//   136    8     first_token_index_offset
//   144    8     file_size
//   152    8     body_checksum: XXH64 (seed 0) of bytes [header_size, file_size)
//   160    8     header_checksum: XXH64 (seed 0) of bytes [0, 160)
//   168    88    zero
// then the sections:
//   tokens            token_count x token_width bytes: doc0 SEP doc1 SEP ... docN-1 SEP
//   suffix array      token_count x uint32: suffix start positions in lexicographic order
//   first-token index (vocab_size + 2) x uint32: entry c = first suffix-array index whose suffix
//                     starts with a token >= c, so token c's suffixes are [index[c], index[c+1])
// Padding between sections is zero and covered by the body checksum. The same documents and
// meta always produce the same bytes. Size: token_width + 4 bytes/token (6 for vocabularies
// below 65536, 7 below 2^24) plus 4 bytes per vocabulary entry for the index.
//
// Separator semantics: a match never crosses a document boundary. The separator compares as a
// mismatch against every context token, so a suffix running into it is treated as ending there.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "reader/repetition.h"
#include "reader/search.h"
#include "reader/suffix_array.h"
#include "reader/tokens.h"

namespace reader {

namespace detail {
struct DatastoreView;
class CountCache;
}  // namespace detail

// Identity of the tokenizer a datastore was built with; a model with another one is refused.
struct DatastoreMeta {
  std::uint32_t vocab_size = 0;             // token ids are in [0, vocab_size)
  std::uint64_t tokenizer_fingerprint = 0;  // caller-defined hash of the tokenizer vocabulary
  std::string tokenizer_name;               // for messages; at most 63 bytes
};

// Progress report during DatastoreBuilder::write: overall fraction in [0, 1] and stage name.
using BuildProgress = std::function<void(double fraction, std::string_view stage)>;

// Knobs for DatastoreBuilder.
struct BuilderOptions {
  std::size_t max_document_tokens = std::size_t{1} << 24;        // longer documents are refused
  SuffixArrayAlgorithm algorithm = SuffixArrayAlgorithm::kAuto;  // suffix-array construction
  BuildProgress progress;                                        // optional progress callback
};

// What DatastoreBuilder::write produced.
struct BuildSummary {
  std::filesystem::path path;                 // the datastore written
  std::uint64_t token_count = 0;              // stored tokens, separators included
  std::uint64_t document_count = 0;           // non-empty documents stored
  std::uint64_t skipped_empty_documents = 0;  // empty documents ignored by add_document
  std::uint64_t file_bytes = 0;               // size of the file
  std::uint32_t token_width = 0;              // bytes per stored token
  double suffix_array_seconds = 0.0;          // time spent building the suffix array
  double total_seconds = 0.0;                 // time spent in write()
};

// Collects documents in memory, then writes a datastore file atomically: the file is written
// to `out + ".tmp-<pid>"`, fsynced, and renamed over `out`, so a failed or interrupted build
// never leaves a partial datastore. Peak memory with SA-IS: 8.2 bytes/token measured at 10M and
// 100M tokens (4 for the collected documents, 4 for the suffix array, a little SA-IS scratch);
// reserve() avoids transient vector-growth copies while collecting.
class DatastoreBuilder {
 public:
  explicit DatastoreBuilder(BuilderOptions options = {});

  // Pre-allocates room for `tokens` document tokens (avoids vector growth slack).
  void reserve(std::size_t tokens);
  // Appends a document. Empty documents are skipped and counted; documents longer than
  // options.max_document_tokens, negative token ids, or a corpus reaching 2^32 - 1 stored
  // tokens throw (std::length_error / std::invalid_argument) and leave the builder unchanged.
  void add_document(TokenSpan doc);

  std::uint64_t document_count() const { return documents_; }
  std::uint64_t skipped_empty_documents() const { return skipped_empty_; }
  // Tokens that will be stored, one separator per document included.
  std::uint64_t token_count() const { return text_.size(); }

  // Builds the suffix array and writes the file. Throws std::invalid_argument for a token id
  // >= meta.vocab_size (naming the id and document index) or bad meta, std::runtime_error for
  // an empty corpus or an I/O failure; in every failure no file is left behind. The builder
  // keeps its documents, so write() may be called again.
  BuildSummary write(const std::filesystem::path& out, const DatastoreMeta& meta);

 private:
  // Marks a document end in text_ until write() knows the separator id (= vocab_size).
  static constexpr Token kDocumentEnd = -1;

  BuilderOptions options_;                     // limits, algorithm, progress callback
  Tokens text_;                                // documents, each followed by kDocumentEnd
  std::uint64_t documents_ = 0;                // non-empty documents added
  std::uint64_t skipped_empty_ = 0;            // empty documents seen
  std::vector<std::uint64_t> empty_ordinals_;  // add_document call numbers of empty documents
};

// How Datastore::open maps and checks a file.
struct OpenOptions {
  bool verify_checksum = true;      // hash the body on open: ~140 ms per 100M tokens (600 MB)
  bool populate = false;            // MAP_POPULATE: fault every page in now, not on first use
  std::uint64_t sample_cap = 4096;  // next-token counting reads at most ~this many occurrences
  // Memo for the counts of large ranges (frequent contexts), in bytes; 0 disables it.
  std::size_t count_cache_bytes = std::size_t{64} << 20;
};

// A contiguous range of the suffix array: the occurrences of the matched context suffix.
struct SuffixRange {
  std::uint64_t lo = 0;  // first suffix-array index of the range
  std::uint64_t hi = 0;  // one past the last
  int length = 0;        // context tokens matched; 0 = no match, and then the range is empty
  std::uint64_t size() const { return hi - lo; }
  bool empty() const { return hi == lo; }
  friend bool operator==(const SuffixRange&, const SuffixRange&) = default;
};

// Next-token statistics for a context, with how they were obtained.
struct NextTokens {
  std::vector<TokenCount> counts;  // count descending, then token ascending; no separators
  int match_len = 0;               // length of the context suffix matched (0 = none)
  std::uint64_t range_size = 0;    // occurrences of that suffix in the datastore
  bool sampled = false;            // true: counts are over `examined` evenly strided occurrences
  std::uint64_t examined = 0;      // occurrences the counts account for (separators included)
};

// A read-only, memory-mapped datastore. Movable, not copyable; unmaps on destruction. All
// const methods are safe to call concurrently (the count memo locks internally).
class Datastore final : public NextTokenSource, public ExternalMatcher {
 public:
  // Maps `path` (MAP_SHARED, read-only) and validates it: magic, format version, header
  // checksum, size, section layout, and (by default) the body checksum. Throws
  // std::runtime_error naming the file and the problem.
  static Datastore open(const std::filesystem::path& path, const OpenOptions& options = {});

  Datastore(Datastore&& other) noexcept;
  Datastore& operator=(Datastore&& other) noexcept;
  Datastore(const Datastore&) = delete;
  Datastore& operator=(const Datastore&) = delete;
  ~Datastore() override;

  std::uint64_t token_count() const { return token_count_; }  // separators included
  std::uint64_t document_count() const { return document_count_; }
  std::uint32_t vocab_size() const { return meta_.vocab_size; }
  Token separator() const { return static_cast<Token>(meta_.vocab_size); }
  std::uint32_t token_width() const { return token_width_; }
  const DatastoreMeta& meta() const { return meta_; }
  const std::filesystem::path& path() const { return path_; }
  // Bytes mapped (the file size): what the datastore costs in page cache when fully resident.
  std::size_t memory_bytes() const { return map_size_; }

  // Throws std::runtime_error unless the datastore was built for this tokenizer.
  void check_tokenizer(std::uint64_t fingerprint, std::uint32_t vocab_size) const;
  // Deep consistency check for tests and `reader datastore check`: tokens in range, one
  // separator per document, the first-token index, the suffix array a permutation, and suffix
  // order on adjacent pairs (all pairs up to 2^20 tokens, an even sample beyond; each compared
  // on up to 256 tokens). O(n); throws std::runtime_error on the first problem.
  void check_integrity() const;

  // Stored token at `pos` (< token_count()); document ends read as separator().
  Token token_at(std::uint64_t pos) const;
  // Suffix-array entry at `rank` (< token_count()).
  std::uint64_t suffix_at(std::uint64_t rank) const;

  // The longest suffix of context, at most max_suffix_len tokens, occurring in the datastore,
  // and its suffix-array range. Only the trailing run of ids in [0, vocab_size) is considered.
  SuffixRange match(TokenSpan context, int max_suffix_len) const;
  // Counts of the tokens following every occurrence of the matched suffix (see NextTokens).
  // A range larger than sample_cap is counted exactly when few distinct tokens follow it, else
  // on sample_cap evenly strided occurrences (deterministic; `sampled` is set). Results for
  // ranges of 512+ occurrences are memoised (OpenOptions::count_cache_bytes); the memo never
  // changes a result, only its cost.
  NextTokens next_tokens(TokenSpan context, int max_suffix_len) const;
  // next_tokens(...).counts: the NextTokenSource interface used by SearchPath.
  std::vector<TokenCount> next_token_counts(TokenSpan context, int max_suffix_len) const override;
  int append_next_token_counts(TokenSpan context, int max_suffix_len,
                               std::vector<TokenCount>& out) const override;
  // Greedy path: repeatedly append the top next token (count desc, token asc), up to `depth`
  // tokens; stops early when nothing follows. Equal to calling next_token_counts in a loop,
  // but reuses each step's range instead of searching from scratch.
  Tokens extend_path(TokenSpan context, int max_suffix_len, int depth) const;
  // Length of the longest prefix of needle occurring in the datastore (within one document).
  std::size_t longest_match_from(TokenSpan needle) const override;

 private:
  Datastore() = default;
  void unmap() noexcept;
  detail::DatastoreView view() const;  // section pointers for the width-templated search

  std::filesystem::path path_;                  // file this maps, for messages
  DatastoreMeta meta_;                          // tokenizer identity from the header
  OpenOptions options_;                         // options given to open()
  const std::uint8_t* map_ = nullptr;           // start of the read-only mapping
  std::size_t map_size_ = 0;                    // mapping length (= file size)
  const std::uint8_t* tokens_ = nullptr;        // tokens section
  const std::uint32_t* suffixes_ = nullptr;     // suffix array section
  const std::uint32_t* first_index_ = nullptr;  // first-token index section
  std::unique_ptr<detail::CountCache> cache_;   // memo of large ranges' counts, or null
  std::uint64_t token_count_ = 0;               // stored tokens, separators included
  std::uint64_t document_count_ = 0;            // documents stored
  std::uint32_t token_width_ = 0;               // bytes per stored token
  std::uint64_t id_ = 0;  // unique per open(), keys the per-thread incremental-match state
};

}  // namespace reader
