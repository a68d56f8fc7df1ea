// Datastore: file round trips, refusal of damaged or mismatched files, and lookups checked
// against naive scans over all positions of the corpus.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "reader/datastore.h"
#include "retrieval/datastore_format.h"
#include "retrieval/xxhash64.h"

namespace reader {
namespace {

namespace fs = std::filesystem;

// A fresh directory under the system temp dir, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    path_ = fs::temp_directory_path() /
            ("reader_ds_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }
  fs::path operator/(const std::string& name) const { return path_ / name; }
  std::vector<std::string> entries() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(path_)) out.push_back(e.path().filename());
    return out;
  }

 private:
  fs::path path_;  // the directory
};

DatastoreMeta meta_for(std::uint32_t vocab) {
  return {vocab, 0x1234abcd5678ef90ull, "test-tokenizer"};
}

BuildSummary build(const std::vector<Tokens>& docs, std::uint32_t vocab, const fs::path& out,
                   SuffixArrayAlgorithm algorithm = SuffixArrayAlgorithm::kAuto) {
  BuilderOptions options;
  options.algorithm = algorithm;
  DatastoreBuilder builder(options);
  for (const auto& d : docs) builder.add_document(d);
  return builder.write(out, meta_for(vocab));
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The header of a datastore file's bytes (offsets of its sections), for tests that damage them.
detail::DatastoreHeader header_of(const std::string& bytes, const fs::path& p) {
  return detail::decode_and_validate_header(reinterpret_cast<const std::uint8_t*>(bytes.data()),
                                            bytes.size(), p);
}

void write_file(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Expects Datastore::open to throw a runtime_error whose message contains `needle`.
void expect_open_error(const fs::path& p, const std::string& needle, OpenOptions options = {}) {
  try {
    Datastore::open(p, options);
    ADD_FAILURE() << "opened " << p << ", expected an error containing '" << needle << "'";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos)
        << "message: " << e.what() << "\nexpected to contain: " << needle;
  }
}

// The reference: the concatenated text and brute-force scans over every position.
class NaiveCorpus {
 public:
  NaiveCorpus(const std::vector<Tokens>& docs, std::uint32_t vocab) : sep_(vocab) {
    for (const auto& d : docs) {
      if (d.empty()) continue;
      text_.insert(text_.end(), d.begin(), d.end());
      text_.push_back(sep_);
    }
  }

  const Tokens& text() const { return text_; }

  // Positions where pattern occurs (it holds no separator, so occurrences stay in a document).
  std::set<std::uint64_t> occurrences(TokenSpan pattern) const {
    std::set<std::uint64_t> out;
    if (pattern.empty()) return out;
    for (std::size_t i = 0; i + pattern.size() <= text_.size(); ++i) {
      if (std::equal(pattern.begin(), pattern.end(), text_.begin() + i)) out.insert(i);
    }
    return out;
  }

  bool is_real(Token t) const { return t >= 0 && t < sep_; }

  int match_len(TokenSpan context, int max_len) const {
    int avail = 0;
    while (avail < max_len && static_cast<std::size_t>(avail) < context.size() &&
           is_real(context[context.size() - 1 - avail])) {
      ++avail;
    }
    for (int len = avail; len >= 1; --len) {
      if (!occurrences(context.last(len)).empty()) return len;
    }
    return 0;
  }

  // Counts sorted count desc, token asc.
  std::vector<TokenCount> next_counts(TokenSpan context, int max_len) const {
    const int len = match_len(context, max_len);
    std::map<Token, std::uint64_t> counts;
    if (len > 0) {
      for (std::uint64_t pos : occurrences(context.last(len))) {
        const Token t = text_[pos + len];
        if (t != sep_) ++counts[t];
      }
    }
    std::vector<TokenCount> out;
    for (auto [t, c] : counts) out.push_back({t, c});
    std::stable_sort(out.begin(), out.end(),
                     [](const TokenCount& a, const TokenCount& b) { return a.count > b.count; });
    return out;
  }

  std::size_t longest_match_from(TokenSpan needle) const {
    std::size_t best = 0;
    for (std::size_t i = 0; i < text_.size(); ++i) {
      std::size_t k = 0;
      while (k < needle.size() && i + k < text_.size() && is_real(needle[k]) &&
             text_[i + k] == needle[k]) {
        ++k;
      }
      best = std::max(best, k);
    }
    return best;
  }

 private:
  Token sep_;    // separator id
  Tokens text_;  // documents joined by separators, as stored
};

// Random documents over a small vocabulary with copied spans, so contexts repeat a lot.
std::vector<Tokens> random_docs(std::mt19937_64& rng, int docs, int max_len, std::uint32_t vocab) {
  std::vector<Tokens> out;
  std::uniform_int_distribution<Token> token(0, static_cast<Token>(vocab) - 1);
  std::uniform_int_distribution<int> len(0, max_len);
  for (int d = 0; d < docs; ++d) {
    Tokens doc(static_cast<std::size_t>(len(rng)));
    for (auto& t : doc) t = token(rng);
    if (!out.empty() && doc.size() > 8 && rng() % 2 == 0) {  // copy a span of an earlier doc
      const Tokens& src = out[rng() % out.size()];
      if (src.size() > 4) {
        const std::size_t n = std::min(src.size() / 2, doc.size() / 2);
        std::copy_n(src.begin(), n, doc.begin() + static_cast<long>(rng() % (doc.size() - n)));
      }
    }
    out.push_back(doc);
  }
  return out;
}

Tokens random_context(std::mt19937_64& rng, const Tokens& text, std::uint32_t vocab) {
  Tokens ctx;
  if (rng() % 4 != 0 && text.size() > 10) {  // mostly taken from the corpus (may straddle docs)
    const std::size_t len = 1 + rng() % 8;
    const std::size_t at = rng() % (text.size() - len);
    ctx.assign(text.begin() + static_cast<long>(at), text.begin() + static_cast<long>(at + len));
  } else {
    const std::size_t len = rng() % 6;
    for (std::size_t i = 0; i < len; ++i) ctx.push_back(static_cast<Token>(rng() % (vocab + 2)));
  }
  if (rng() % 8 == 0) ctx.insert(ctx.begin() + static_cast<long>(rng() % (ctx.size() + 1)), -3);
  if (rng() % 4 == 0) ctx.push_back(static_cast<Token>(rng() % vocab));  // may not occur
  return ctx;
}

TEST(Xxh64, MatchesReferenceVectors) {
  EXPECT_EQ(detail::Xxh64::hash("", 0), 0xef46db3751d8e999ull);
  EXPECT_EQ(detail::Xxh64::hash("a", 1), 0xd24ec4f1a98c6e5bull);
  EXPECT_EQ(detail::Xxh64::hash("abc", 3), 0x44bc2cf5ad770999ull);
  std::string bytes;
  for (int r = 0; r < 3; ++r) {
    for (int i = 0; i < 256; ++i) bytes.push_back(static_cast<char>(i));
  }
  EXPECT_EQ(detail::Xxh64::hash(bytes.data(), bytes.size()), 0x8e03c838c596036full);
  detail::Xxh64 streamed;  // any split gives the same digest
  for (std::size_t i = 0; i < bytes.size();) {
    const std::size_t n = std::min<std::size_t>(1 + i % 37, bytes.size() - i);
    streamed.update(bytes.data() + i, n);
    i += n;
  }
  EXPECT_EQ(streamed.digest(), 0x8e03c838c596036full);
}

TEST(Datastore, RoundTripSmallCorpus) {
  TempDir dir;
  const std::vector<Tokens> docs = {{1, 2, 3, 4}, {}, {2, 3, 5}, {7}};
  const auto summary = build(docs, 10, dir / "ds.bin");
  EXPECT_EQ(summary.token_count, 11u);  // 8 tokens + 3 separators
  EXPECT_EQ(summary.document_count, 3u);
  EXPECT_EQ(summary.skipped_empty_documents, 1u);
  EXPECT_EQ(summary.token_width, 1u);
  EXPECT_EQ(summary.file_bytes, fs::file_size(dir / "ds.bin"));

  const Datastore ds = Datastore::open(dir / "ds.bin");
  EXPECT_EQ(ds.token_count(), 11u);
  EXPECT_EQ(ds.document_count(), 3u);
  EXPECT_EQ(ds.vocab_size(), 10u);
  EXPECT_EQ(ds.separator(), 10);
  EXPECT_EQ(ds.meta().tokenizer_name, "test-tokenizer");
  EXPECT_EQ(ds.meta().tokenizer_fingerprint, 0x1234abcd5678ef90ull);
  EXPECT_EQ(ds.memory_bytes(), summary.file_bytes);
  const Tokens expected = {1, 2, 3, 4, 10, 2, 3, 5, 10, 7, 10};
  for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(ds.token_at(i), expected[i]);
  EXPECT_NO_THROW(ds.check_integrity());
  EXPECT_NO_THROW(ds.check_tokenizer(0x1234abcd5678ef90ull, 10));
  OpenOptions eager;
  eager.populate = true;
  eager.verify_checksum = false;
  EXPECT_EQ(Datastore::open(dir / "ds.bin", eager).token_at(9), 7);

  const Tokens ctx = {9, 2, 3};
  const SuffixRange r = ds.match(ctx, 4);
  EXPECT_EQ(r.length, 2);
  EXPECT_EQ(r.size(), 2u);
  const NextTokens next = ds.next_tokens(ctx, 4);
  EXPECT_EQ(next.counts, (std::vector<TokenCount>{{4, 1}, {5, 1}}));
  EXPECT_FALSE(next.sampled);
  EXPECT_EQ(next.examined, 2u);
  EXPECT_EQ(ds.extend_path(Tokens{1}, 4, 10), (Tokens{2, 3, 4}));  // stops at the document end
}

TEST(Datastore, EveryTokenWidthRoundTrips) {
  TempDir dir;
  for (std::uint32_t vocab : {200u, 1000u, 70000u, (1u << 24) + 3}) {
    const Token big = static_cast<Token>(vocab - 1);
    const std::vector<Tokens> docs = {{big, 0, big, 5}, {5, big, 0}, {0, 0, big}};
    const fs::path path = dir / ("w" + std::to_string(vocab));
    build(docs, vocab, path);
    const Datastore ds = Datastore::open(path);
    EXPECT_EQ(ds.token_width(), detail::token_width_for(vocab));
    ds.check_integrity();
    const NaiveCorpus naive(docs, vocab);
    for (std::size_t i = 0; i < naive.text().size(); ++i)
      EXPECT_EQ(ds.token_at(i), naive.text()[i]);
    const Tokens ctx = {0, big};
    EXPECT_EQ(ds.next_token_counts(ctx, 3), naive.next_counts(ctx, 3)) << "vocab " << vocab;
  }
}

TEST(Datastore, LookupsMatchNaiveScan) {
  TempDir dir;
  std::mt19937_64 rng(42);
  for (int round = 0; round < 12; ++round) {
    const std::uint32_t vocab = 2 + static_cast<std::uint32_t>(rng() % (round < 6 ? 4 : 300));
    const auto docs = random_docs(rng, 1 + static_cast<int>(rng() % 30), 80, vocab);
    const NaiveCorpus naive(docs, vocab);
    if (naive.text().empty()) continue;
    const fs::path path = dir / ("ds" + std::to_string(round));
    build(docs, vocab, path);
    const Datastore ds = Datastore::open(path);
    ds.check_integrity();
    for (int q = 0; q < 150; ++q) {
      const Tokens ctx = random_context(rng, naive.text(), vocab);
      const int max_len = 1 + static_cast<int>(rng() % 7);
      const SuffixRange r = ds.match(ctx, max_len);
      ASSERT_EQ(r.length, naive.match_len(ctx, max_len)) << "round " << round << " query " << q;
      std::set<std::uint64_t> positions;
      for (std::uint64_t i = r.lo; i < r.hi; ++i) positions.insert(ds.suffix_at(i));
      if (r.length > 0) {
        EXPECT_EQ(positions, naive.occurrences(TokenSpan(ctx).last(r.length)));
      } else {
        EXPECT_TRUE(r.empty());
      }
      EXPECT_EQ(ds.next_token_counts(ctx, max_len), naive.next_counts(ctx, max_len));
      EXPECT_EQ(ds.longest_match_from(ctx), naive.longest_match_from(ctx));
    }
  }
}

// SearchPath's access pattern: each query extends the previous context by one token (the top
// continuation, another continuation, a token that never follows, or an invalid id).
TEST(Datastore, GrowingContextsMatchNaiveScan) {
  TempDir dir;
  std::mt19937_64 rng(99);
  for (int round = 0; round < 8; ++round) {
    const std::uint32_t vocab = 2 + static_cast<std::uint32_t>(rng() % (round < 4 ? 3 : 40));
    const auto docs = random_docs(rng, 25, 100, vocab);
    const NaiveCorpus naive(docs, vocab);
    if (naive.text().empty()) continue;
    const fs::path path = dir / ("ds" + std::to_string(round));
    build(docs, vocab, path);
    const Datastore ds = Datastore::open(path);
    for (int q = 0; q < 40; ++q) {
      Tokens ctx = random_context(rng, naive.text(), vocab);
      const int max_len = 1 + static_cast<int>(rng() % 6);
      const bool cut = rng() % 2 == 0;  // as search_path does: pass only the last max_len tokens
      for (int step = 0; step < 12; ++step) {
        const TokenSpan query =
            cut ? TokenSpan(ctx).last(std::min<std::size_t>(ctx.size(), max_len)) : TokenSpan(ctx);
        const auto counts = ds.next_token_counts(query, max_len);
        ASSERT_EQ(counts, naive.next_counts(query, max_len)) << "round " << round << " q " << q;
        ASSERT_EQ(ds.match(query, max_len).length, naive.match_len(query, max_len));
        const auto pick = rng() % 8;
        if (!counts.empty() && pick < 5) {
          ctx.push_back(counts[rng() % std::min<std::size_t>(counts.size(), 2)].token);
        } else if (pick < 7) {
          ctx.push_back(static_cast<Token>(rng() % vocab));
        } else {
          ctx.push_back(static_cast<Token>(vocab + rng() % 2));  // separator id or beyond
        }
      }
    }
  }
}

TEST(Datastore, MatchesNeverCrossDocumentBoundaries) {
  TempDir dir;
  build({{1, 2, 3}, {4, 5}, {3, 4, 6}}, 8, dir / "ds");
  const Datastore ds = Datastore::open(dir / "ds");
  EXPECT_TRUE(ds.next_token_counts(Tokens{2, 3}, 4).empty());  // "2 3" ends its document
  EXPECT_EQ(ds.match(Tokens{2, 3, 4}, 4).length, 2);           // "3 4" only inside doc 2
  EXPECT_EQ(ds.next_token_counts(Tokens{2, 3, 4}, 4), (std::vector<TokenCount>{{6, 1}}));
  EXPECT_EQ(ds.longest_match_from(Tokens{2, 3, 4, 5}), 2u);
  EXPECT_EQ(ds.longest_match_from(Tokens{8, 1}), 0u);  // the separator id never matches
  EXPECT_EQ(ds.match(Tokens{1, 8}, 4).length, 0);
  EXPECT_EQ(ds.match(Tokens{}, 4).length, 0);
  EXPECT_EQ(ds.match(Tokens{1, 2}, 0).length, 0);
}

// One context ("0") followed by many distinct tokens: a range over the cap.
std::vector<Tokens> wide_fanout_docs(int n, std::uint32_t vocab) {
  std::vector<Tokens> docs;
  for (int i = 0; i < n; ++i) docs.push_back({0, 1 + static_cast<Token>(i % (vocab - 1)), 0});
  return docs;
}

TEST(Datastore, LargeRangesAreSampledDeterministically) {
  TempDir dir;
  const auto docs = wide_fanout_docs(3000, 1000);
  build(docs, 1000, dir / "ds");
  OpenOptions options;
  options.sample_cap = 64;
  const Datastore ds = Datastore::open(dir / "ds", options);
  const NextTokens a = ds.next_tokens(Tokens{0}, 4);
  EXPECT_TRUE(a.sampled);
  EXPECT_EQ(a.range_size, 6000u);
  EXPECT_EQ(a.examined, 64u);
  std::uint64_t total = 0;
  for (const auto& c : a.counts) total += c.count;
  EXPECT_LE(total, 64u);
  EXPECT_GT(total, 0u);
  for (std::size_t i = 1; i < a.counts.size(); ++i) {  // count desc, token asc
    EXPECT_TRUE(
        a.counts[i - 1].count > a.counts[i].count ||
        (a.counts[i - 1].count == a.counts[i].count && a.counts[i - 1].token < a.counts[i].token));
  }
  const Datastore again = Datastore::open(dir / "ds", options);
  const NextTokens b = again.next_tokens(Tokens{0}, 4);
  EXPECT_EQ(a.counts, b.counts);
  EXPECT_EQ(ds.extend_path(Tokens{0}, 4, 3), again.extend_path(Tokens{0}, 4, 3));

  // With a cap above the range size the same range is counted exactly.
  OpenOptions roomy;
  roomy.sample_cap = 10000;
  const Datastore exact = Datastore::open(dir / "ds", roomy);
  const NextTokens c = exact.next_tokens(Tokens{0}, 4);
  EXPECT_FALSE(c.sampled);
  EXPECT_EQ(c.counts, NaiveCorpus(docs, 1000).next_counts(Tokens{0}, 4));
}

TEST(Datastore, LargeRangesWithFewContinuationsStayExact) {
  TempDir dir;
  std::vector<Tokens> docs;
  for (int i = 0; i < 5000; ++i) docs.push_back({3, static_cast<Token>(4 + i % 3), 9});
  build(docs, 16, dir / "ds");
  OpenOptions options;
  options.sample_cap = 256;
  const Datastore ds = Datastore::open(dir / "ds", options);
  const NextTokens next = ds.next_tokens(Tokens{3}, 2);
  EXPECT_FALSE(next.sampled);
  EXPECT_EQ(next.examined, 5000u);
  EXPECT_EQ(next.counts, (std::vector<TokenCount>{{4, 1667}, {5, 1667}, {6, 1666}}));
}

TEST(Datastore, CountCacheChangesNothing) {
  TempDir dir;
  std::mt19937_64 rng(17);
  auto docs = wide_fanout_docs(3000, 1000);
  const auto more = random_docs(rng, 200, 300, 4);  // tiny vocabulary: huge ranges everywhere
  docs.insert(docs.end(), more.begin(), more.end());
  build(docs, 1000, dir / "ds");
  OpenOptions cached, uncached;
  cached.sample_cap = uncached.sample_cap = 700;
  uncached.count_cache_bytes = 0;
  const Datastore a = Datastore::open(dir / "ds", cached);
  const Datastore b = Datastore::open(dir / "ds", uncached);
  const NaiveCorpus naive(docs, 1000);
  for (int q = 0; q < 300; ++q) {
    const Tokens ctx = random_context(rng, naive.text(), 5);
    for (int rep = 0; rep < 2; ++rep) {  // the second round is served from the memo
      const NextTokens x = a.next_tokens(ctx, 3), y = b.next_tokens(ctx, 3);
      EXPECT_EQ(x.counts, y.counts);
      EXPECT_EQ(x.match_len, y.match_len);
      EXPECT_EQ(x.range_size, y.range_size);
      EXPECT_EQ(x.sampled, y.sampled);
      EXPECT_EQ(x.examined, y.examined);
    }
    EXPECT_EQ(a.extend_path(ctx, 3, 8), b.extend_path(ctx, 3, 8));
  }
}

TEST(Datastore, ExtendPathEqualsRepeatedNextTokenCounts) {
  TempDir dir;
  std::mt19937_64 rng(7);
  for (std::uint64_t cap : {4096u, 3u}) {
    for (int round = 0; round < 6; ++round) {
      const std::uint32_t vocab = 2 + static_cast<std::uint32_t>(rng() % 6);
      const auto docs = random_docs(rng, 20, 120, vocab);
      const NaiveCorpus naive(docs, vocab);
      if (naive.text().empty()) continue;
      const fs::path path = dir / ("ds" + std::to_string(round) + "_" + std::to_string(cap));
      build(docs, vocab, path);
      OpenOptions options;
      options.sample_cap = cap;
      const Datastore ds = Datastore::open(path, options);
      for (int q = 0; q < 40; ++q) {
        const Tokens ctx = random_context(rng, naive.text(), vocab);
        const int max_len = 1 + static_cast<int>(rng() % 5);
        Tokens expected, grown = ctx;
        for (int step = 0; step < 12; ++step) {
          const auto counts = ds.next_token_counts(grown, max_len);
          if (counts.empty()) break;
          expected.push_back(counts.front().token);
          grown.push_back(counts.front().token);
        }
        EXPECT_EQ(ds.extend_path(ctx, max_len, 12), expected) << "cap " << cap << " q " << q;
      }
    }
  }
}

TEST(Datastore, BothAlgorithmsWriteIdenticalFiles) {
  TempDir dir;
  std::mt19937_64 rng(3);
  const auto docs = random_docs(rng, 40, 200, 50);
  build(docs, 50, dir / "a", SuffixArrayAlgorithm::kSais);
  build(docs, 50, dir / "b", SuffixArrayAlgorithm::kSais);
  EXPECT_EQ(read_file(dir / "a"), read_file(dir / "b"));  // deterministic bytes
  if (divsufsort_available()) {
    build(docs, 50, dir / "c", SuffixArrayAlgorithm::kDivsufsort);
    EXPECT_EQ(read_file(dir / "a"), read_file(dir / "c"));
  }
}

TEST(Datastore, RefusesWrongMagicAndOtherVersion) {
  TempDir dir;
  build({{1, 2, 3}}, 8, dir / "ds");
  std::string bytes = read_file(dir / "ds");

  std::string bad_magic = bytes;
  bad_magic[0] = 'X';
  write_file(dir / "magic", bad_magic);
  expect_open_error(dir / "magic", "not a reader datastore");
  write_file(dir / "text", "hello, this is not a datastore at all");
  expect_open_error(dir / "text", "not a reader datastore");

  std::string v2 = bytes;
  v2[detail::kOffVersion] = 2;
  write_file(dir / "v2", v2);
  expect_open_error(dir / "v2", "datastore format version 2, this build reads 1");

  std::string header = bytes;
  header[detail::kOffVocabSize] ^= 1;  // caught by the header checksum
  write_file(dir / "header", header);
  expect_open_error(dir / "header", "header checksum");
  expect_open_error(dir / "missing", "cannot open");
}

TEST(Datastore, RefusesTruncatedFiles) {
  TempDir dir;
  std::mt19937_64 rng(5);
  build(random_docs(rng, 10, 100, 300), 300, dir / "ds");
  const std::string bytes = read_file(dir / "ds");
  for (std::size_t cut : {std::size_t{0}, std::size_t{5}, std::size_t{100}, std::size_t{255},
                          std::size_t{256}, std::size_t{300}, bytes.size() / 2, bytes.size() - 1}) {
    write_file(dir / "cut", bytes.substr(0, cut));
    expect_open_error(dir / "cut", "truncated");
    if (cut >= detail::kDatastoreHeaderSize) {
      expect_open_error(dir / "cut", "expected " + std::to_string(bytes.size()) +
                                         " bytes, file has " + std::to_string(cut));
    }
  }
  write_file(dir / "long", bytes + "x");
  expect_open_error(dir / "long", "trailing data");
}

TEST(Datastore, ChecksumCatchesFlippedBytes) {
  TempDir dir;
  std::mt19937_64 rng(11);
  build(random_docs(rng, 10, 100, 300), 300, dir / "ds");
  const std::string bytes = read_file(dir / "ds");
  const auto h = header_of(bytes, dir / "ds");
  for (std::uint64_t at : {h.tokens_offset + 3, h.suffix_array_offset + 5, h.first_index_offset + 2,
                           h.file_size - 1}) {
    std::string flipped = bytes;
    flipped[at] ^= 0x10;
    write_file(dir / "flip", flipped);
    expect_open_error(dir / "flip", "checksum mismatch");
  }
  // Without verification the damage goes unnoticed at open (the documented trade-off).
  std::string flipped = bytes;
  flipped[h.tokens_offset + 3] ^= 0x01;
  write_file(dir / "flip", flipped);
  OpenOptions no_verify;
  no_verify.verify_checksum = false;
  EXPECT_NO_THROW(Datastore::open(dir / "flip", no_verify));
}

// Found by fuzz/fuzz_datastore: a damaged first-token index in a file opened without
// verification made lookups read far past the suffix array; now they refuse it.
TEST(Datastore, LookupsRefuseADamagedFirstTokenIndex) {
  TempDir dir;
  std::mt19937_64 rng(12);
  build(random_docs(rng, 10, 100, 300), 300, dir / "ds");
  const std::string bytes = read_file(dir / "ds");
  const auto h = header_of(bytes, dir / "ds");
  for (const std::uint32_t bad : {std::uint32_t{0x7ffffff0}, std::uint32_t{0}}) {
    std::string damaged = bytes;
    // Entry 5 + 1 bounds token 5's range: past the array, or below entry 5 (lo > hi).
    std::memcpy(damaged.data() + h.first_index_offset + 6 * sizeof(std::uint32_t), &bad,
                sizeof bad);
    write_file(dir / "bad", damaged);
    OpenOptions no_verify;
    no_verify.verify_checksum = false;
    const Datastore ds = Datastore::open(dir / "bad", no_verify);
    EXPECT_THROW(ds.next_tokens(Tokens{5}, 8), std::runtime_error);
    EXPECT_THROW(ds.match(Tokens{1, 5}, 8), std::runtime_error);
    EXPECT_THROW(ds.longest_match_from(Tokens{5, 1}), std::runtime_error);
    EXPECT_THROW(ds.check_integrity(), std::runtime_error);
  }
}

// Found by fuzz/fuzz_datastore: a stored token above the separator (a file opened without
// verification) was counted as a next token, and extend_path then indexed the first-token
// index with it, past its end.
TEST(Datastore, LookupsRefuseStoredTokensAboveTheSeparator) {
  TempDir dir;
  build({{1, 2, 3, 1, 2, 4}}, 300, dir / "ds");
  std::string bytes = read_file(dir / "ds");
  const auto h = header_of(bytes, dir / "ds");
  ASSERT_EQ(h.token_width, 2u);
  const std::uint16_t bad = 305;  // position 1: the "2" after the first "1"
  std::memcpy(bytes.data() + h.tokens_offset + 2, &bad, sizeof bad);
  write_file(dir / "bad", bytes);
  OpenOptions no_verify;
  no_verify.verify_checksum = false;
  const Datastore ds = Datastore::open(dir / "bad", no_verify);
  EXPECT_THROW(ds.next_tokens(Tokens{1}, 8), std::runtime_error);
  EXPECT_THROW(ds.extend_path(Tokens{1}, 8, 4), std::runtime_error);
  EXPECT_THROW(ds.check_integrity(), std::runtime_error);
}

TEST(Datastore, RefusesOtherTokenizer) {
  TempDir dir;
  build({{1, 2, 3}}, 8, dir / "ds");
  const Datastore ds = Datastore::open(dir / "ds");
  EXPECT_NO_THROW(ds.check_tokenizer(0x1234abcd5678ef90ull, 8));
  try {
    ds.check_tokenizer(0x99, 8);
    FAIL() << "expected a tokenizer mismatch";
  } catch (const std::runtime_error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("test-tokenizer"), std::string::npos) << msg;
    EXPECT_NE(msg.find("0000000000000099"), std::string::npos) << msg;
  }
  EXPECT_THROW(ds.check_tokenizer(0x1234abcd5678ef90ull, 9), std::runtime_error);
}

TEST(Datastore, BuilderRefusesBadInputAndLeavesNoFiles) {
  TempDir dir;
  {
    DatastoreBuilder builder;
    builder.add_document(Tokens{1, 2});
    builder.add_document(Tokens{});
    builder.add_document(Tokens{3, 12, 4});  // call #2: the empty one counts
    try {
      builder.write(dir / "ds", meta_for(10));
      FAIL() << "expected a token id error";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("document 2: token id 12 is >= vocab_size 10"),
                std::string::npos)
          << e.what();
    }
    // The builder keeps its documents: a larger vocabulary now works.
    EXPECT_EQ(builder.write(dir / "ok", meta_for(13)).document_count, 2u);
    fs::remove(dir / "ok");
  }
  {
    DatastoreBuilder builder;
    builder.add_document(Tokens{});
    EXPECT_THROW(builder.write(dir / "ds", meta_for(10)), std::runtime_error);  // empty corpus
    EXPECT_THROW(builder.add_document(Tokens{1, -2}), std::invalid_argument);
    EXPECT_THROW(builder.write(dir / "ds", meta_for(0)), std::invalid_argument);
  }
  {
    BuilderOptions options;
    options.max_document_tokens = 4;
    DatastoreBuilder builder(options);
    EXPECT_THROW(builder.add_document(Tokens{1, 2, 3, 4, 5}), std::length_error);
    EXPECT_EQ(builder.token_count(), 0u);
    builder.add_document(Tokens{1, 2, 3, 4});
    EXPECT_THROW(builder.write(dir / "no" / "such" / "dir", meta_for(10)), std::runtime_error);
    DatastoreMeta long_name = meta_for(10);
    long_name.tokenizer_name = std::string(64, 'x');
    EXPECT_THROW(builder.write(dir / "ds", long_name), std::invalid_argument);
  }
  {
    // A build interrupted mid-write (here by the progress callback) leaves nothing behind.
    BuilderOptions options;
    options.progress = [](double, std::string_view stage) {
      if (stage == "writing suffix array") throw std::runtime_error("interrupted");
    };
    DatastoreBuilder builder(options);
    builder.add_document(Tokens{1, 2, 3});
    EXPECT_THROW(builder.write(dir / "ds", meta_for(10)), std::runtime_error);
  }
  EXPECT_TRUE(dir.entries().empty()) << dir.entries().front();
}

TEST(Datastore, RebuildReplacesFileWhileOpenMappingStaysValid) {
  TempDir dir;
  build({{1, 2, 3}}, 8, dir / "ds");
  const Datastore old = Datastore::open(dir / "ds");
  build({{4, 5, 6, 7}}, 8, dir / "ds");
  const Datastore fresh = Datastore::open(dir / "ds");
  EXPECT_EQ(old.token_count(), 4u);  // still the first file's inode
  EXPECT_EQ(old.next_token_counts(Tokens{1}, 2), (std::vector<TokenCount>{{2, 1}}));
  EXPECT_EQ(fresh.token_count(), 5u);
  EXPECT_EQ(dir.entries().size(), 1u);
}

TEST(Datastore, ProgressIsMonotoneAndCompletes) {
  TempDir dir;
  std::vector<double> fractions;
  BuilderOptions options;
  options.progress = [&](double f, std::string_view) { fractions.push_back(f); };
  DatastoreBuilder builder(options);
  builder.add_document(Tokens{1, 2, 3});
  builder.write(dir / "ds", meta_for(10));
  ASSERT_FALSE(fractions.empty());
  EXPECT_TRUE(std::is_sorted(fractions.begin(), fractions.end()));
  EXPECT_EQ(fractions.front(), 0.0);
  EXPECT_EQ(fractions.back(), 1.0);
}

TEST(Datastore, MovesAndConcurrentReads) {
  TempDir dir;
  std::mt19937_64 rng(21);
  const auto docs = random_docs(rng, 50, 200, 20);
  build(docs, 20, dir / "ds");
  Datastore a = Datastore::open(dir / "ds");
  Datastore b = std::move(a);
  EXPECT_EQ(a.memory_bytes(), 0u);  // NOLINT(bugprone-use-after-move): moved-from is empty
  Datastore c = Datastore::open(dir / "ds");
  c = std::move(b);
  const NaiveCorpus naive(docs, 20);
  std::vector<Tokens> contexts;
  for (int i = 0; i < 64; ++i) contexts.push_back(random_context(rng, naive.text(), 20));
  std::vector<std::vector<TokenCount>> expected;
  for (const auto& ctx : contexts) expected.push_back(c.next_token_counts(ctx, 4));
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int rep = 0; rep < 20; ++rep) {
        for (std::size_t i = 0; i < contexts.size(); ++i) {
          if (c.next_token_counts(contexts[i], 4) != expected[i]) ++mismatches;
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(mismatches.load(), 0);
}

}  // namespace
}  // namespace reader
