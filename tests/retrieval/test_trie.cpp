// ShortTermTrie against the naive window-count model: counts, child order, append/insert
// equivalence, lookup fallback, the three extractions, eviction and edge cases.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <climits>
#include <random>
#include <stdexcept>

#include "naive_trie.h"
#include "reader/trie.h"

namespace reader {
namespace {

using testing::kScale;
using testing::NaiveTrie;

Tokens random_tokens(std::mt19937& rng, std::size_t n, int alphabet, Token base = 0) {
  std::uniform_int_distribution<int> pick(0, alphabet - 1);
  Tokens out(n);
  for (Token& t : out) t = base + pick(rng);
  return out;
}

// Random text with long copied spans, so deep windows repeat.
Tokens repetitive_tokens(std::mt19937& rng, std::size_t n, int alphabet) {
  Tokens out;
  std::uniform_int_distribution<int> pick(0, alphabet - 1);
  while (out.size() < n) {
    if (out.size() > 4 && rng() % 3 == 0) {
      const std::size_t from = rng() % out.size();
      const std::size_t len = 1 + rng() % 12;
      for (std::size_t i = 0; i < len && out.size() < n; ++i) out.push_back(out[from + i]);
    } else {
      out.push_back(pick(rng));
    }
  }
  return out;
}

// Trie content and per-node child order equal the naive model.
void expect_same(const ShortTermTrie& trie, const NaiveTrie& naive) {
  ASSERT_NO_THROW(trie.check_integrity());
  ASSERT_EQ(testing::dump(trie), naive.counts());
  EXPECT_EQ(trie.total_windows(), naive.root_count());
  for (const auto& [path, kids] : testing::child_lists(trie)) {
    ASSERT_EQ(kids, naive.children(path));
  }
}

TEST(TrieTest, CountsAndOrderMatchNaiveSmallAlphabets) {
  std::mt19937 rng(1);
  for (int round = 0; round < 120 * kScale; ++round) {
    const int depth = 1 + static_cast<int>(rng() % 7);
    const int alphabet = 2 + static_cast<int>(rng() % 4);
    ShortTermTrie trie({.max_depth = depth});
    NaiveTrie naive(depth);
    const int docs = 1 + static_cast<int>(rng() % 3);
    for (int d = 0; d < docs; ++d) {
      const Tokens doc = repetitive_tokens(rng, rng() % 120, alphabet);
      trie.insert(doc);
      naive.insert(doc);
    }
    expect_same(trie, naive);
  }
}

TEST(TrieTest, CountsAndOrderMatchNaiveLargeFanout) {
  // Alphabets large enough that many nodes pass the linear-scan limit and use the hash.
  std::mt19937 rng(2);
  for (int round = 0; round < 5 * kScale; ++round) {
    const int depth = 2 + static_cast<int>(rng() % 5);
    ShortTermTrie trie({.max_depth = depth});
    NaiveTrie naive(depth);
    const Tokens doc = repetitive_tokens(rng, 3000, 20 + static_cast<int>(rng() % 200));
    trie.insert(doc);
    naive.insert(doc);
    expect_same(trie, naive);
    std::size_t wide = 0;  // non-root nodes past the linear-scan limit
    for (const auto& [path, kids] : testing::child_lists(trie)) wide += kids.size() > 8 ? 1 : 0;
    EXPECT_GT(wide, 0u);
  }
}

TEST(TrieTest, RapidcheckInsertMatchesNaive) {
  EXPECT_TRUE(rc::check("trie == naive windows",
                        [](const std::vector<std::uint8_t>& raw, std::uint8_t depth_raw) {
                          const int depth = 1 + depth_raw % 6;
                          Tokens doc;
                          for (const std::uint8_t b : raw) doc.push_back(b % 4);
                          ShortTermTrie trie({.max_depth = depth});
                          NaiveTrie naive(depth);
                          trie.insert(doc);
                          naive.insert(doc);
                          trie.check_integrity();
                          RC_ASSERT(testing::dump(trie) == naive.counts());
                          for (const auto& [path, kids] : testing::child_lists(trie)) {
                            RC_ASSERT(kids == naive.children(path));
                          }
                        }));
}

TEST(TrieTest, AppendInChunksEqualsInsert) {
  std::mt19937 rng(3);
  for (int round = 0; round < 30 * kScale; ++round) {
    const int depth = 1 + static_cast<int>(rng() % 9);
    const Tokens seq = repetitive_tokens(rng, rng() % 400, 2 + static_cast<int>(rng() % 30));
    ShortTermTrie appended({.max_depth = depth});
    std::size_t pos = 0;
    while (pos < seq.size()) {
      const std::size_t chunk = std::min(seq.size() - pos, static_cast<std::size_t>(rng() % 9));
      if (chunk == 1 && rng() % 2 == 0) {
        appended.append(seq[pos]);
      } else {
        appended.append(TokenSpan(seq).subspan(pos, chunk));
      }
      pos += chunk;
      ASSERT_NO_THROW(appended.check_integrity());
    }
    ShortTermTrie inserted({.max_depth = depth});
    inserted.insert(seq);
    NaiveTrie naive(depth);
    naive.insert(seq);
    expect_same(appended, naive);
    expect_same(inserted, naive);
    EXPECT_EQ(testing::child_lists(appended), testing::child_lists(inserted));
  }
}

TEST(TrieTest, CompactKeepsContentAndAppendsContinue) {
  std::mt19937 rng(8);
  for (int round = 0; round < 12 * kScale; ++round) {
    const int depth = 1 + static_cast<int>(rng() % 8);
    const Tokens seq = repetitive_tokens(rng, rng() % 1500, 2 + static_cast<int>(rng() % 100));
    const std::size_t cut = seq.empty() ? 0 : rng() % seq.size();
    ShortTermTrie trie({.max_depth = depth});
    trie.append(TokenSpan(seq).first(cut));
    trie.compact();
    ASSERT_NO_THROW(trie.check_integrity());
    trie.append(TokenSpan(seq).subspan(cut));  // the open windows survive the renumbering
    trie.compact();
    trie.compact();
    NaiveTrie naive(depth);
    naive.insert(seq);
    expect_same(trie, naive);
  }
}

TEST(TrieTest, AutomaticCompactionKeepsContent) {
  // Enough nodes (> 16k) that append() compacts by itself, several times, mid-stream.
  std::mt19937 rng(9);
  const Tokens seq = repetitive_tokens(rng, 12000, 400);
  ShortTermTrie trie({.max_depth = 8, .auto_compact = true});
  ShortTermTrie reference({.max_depth = 8});
  std::size_t pos = 0;
  while (pos < seq.size()) {
    const std::size_t chunk = std::min(seq.size() - pos, 1 + rng() % 3000);
    trie.append(TokenSpan(seq).subspan(pos, chunk));
    reference.append(TokenSpan(seq).subspan(pos, chunk));
    pos += chunk;
  }
  ASSERT_GT(trie.node_count(), 40000u);
  NaiveTrie naive(8);
  naive.insert(seq);
  expect_same(trie, naive);
  expect_same(reference, naive);
  EXPECT_EQ(trie.best_path(seq, 6, 16), reference.best_path(seq, 6, 16));
}

TEST(TrieTest, InsertedDocumentsDoNotJoinHistory) {
  ShortTermTrie trie({.max_depth = 4});
  trie.append(Tokens{1, 2});
  trie.insert(Tokens{3, 4});
  trie.append(Tokens{5});
  NaiveTrie naive(4);
  naive.insert(Tokens{1, 2, 5});
  naive.insert(Tokens{3, 4});
  expect_same(trie, naive);
  EXPECT_EQ(trie.child(trie.child(ShortTermTrie::kRoot, 2), 5) >= 0, true);
  EXPECT_EQ(trie.child(trie.child(ShortTermTrie::kRoot, 2), 3), -1);
  EXPECT_EQ(trie.child(trie.child(ShortTermTrie::kRoot, 4), 5), -1);
}

TEST(TrieTest, LookupFallsBackToShorterSuffixes) {
  ShortTermTrie trie({.max_depth = 8});
  // "1 2 3" is followed by 4 once; "2 3" also by 5 twice; "7 2 3" never occurs.
  trie.insert(Tokens{1, 2, 3, 4, 0, 2, 3, 5, 0, 2, 3, 5});
  TrieMatch m = trie.match(Tokens{9, 1, 2, 3}, 8);
  EXPECT_EQ(m.length, 3);
  EXPECT_EQ(trie.next_tokens(Tokens{9, 1, 2, 3}, 8), (std::vector<TokenCount>{{4, 1}}));
  m = trie.match(Tokens{7, 2, 3}, 8);
  EXPECT_EQ(m.length, 2);
  EXPECT_EQ(m.count, 3u);
  EXPECT_EQ(trie.next_tokens(Tokens{7, 2, 3}, 8), (std::vector<TokenCount>{{5, 2}, {4, 1}}));
  // max_suffix_len caps the match.
  EXPECT_EQ(trie.match(Tokens{1, 2, 3}, 1).length, 1);
  EXPECT_EQ(trie.next_tokens(Tokens{1, 2, 3}, 1), (std::vector<TokenCount>{{5, 2}, {4, 1}}));
  EXPECT_FALSE(trie.match(Tokens{42}, 8));
}

TEST(TrieTest, SuffixAtEndOfHistoryFallsBackToOneWithContinuations) {
  ShortTermTrie trie({.max_depth = 8});
  trie.append(Tokens{5, 6, 7, 1, 2, 9, 1, 2});
  // "9 1 2" exists only at the very end (no continuation); "1 2" was followed by 9.
  const TrieMatch m = trie.match(Tokens{9, 1, 2}, 8);
  EXPECT_EQ(m.length, 2);
  EXPECT_EQ(trie.next_tokens(Tokens{9, 1, 2}, 8), (std::vector<TokenCount>{{9, 1}}));
}

TEST(TrieTest, ContextLongerThanDepthIsClamped) {
  ShortTermTrie trie({.max_depth = 3});
  trie.insert(Tokens{1, 2, 3, 4, 1, 2, 3, 5});
  const TrieMatch m = trie.match(Tokens{1, 2, 3}, 8);
  EXPECT_EQ(m.length, 2);  // at most D-1 tokens, so the match still has children
  EXPECT_EQ(trie.next_tokens(Tokens{1, 2, 3}, 8), (std::vector<TokenCount>{{4, 1}, {5, 1}}));
}

TEST(TrieTest, LookupsMatchNaive) {
  std::mt19937 rng(4);
  for (int round = 0; round < 25 * kScale; ++round) {
    const int depth = 1 + static_cast<int>(rng() % 8);
    const int alphabet = 2 + static_cast<int>(rng() % 40);
    const Tokens seq = repetitive_tokens(rng, 50 + rng() % 300, alphabet);
    ShortTermTrie trie({.max_depth = depth});
    trie.append(seq);
    NaiveTrie naive(depth);
    naive.insert(seq);
    for (int q = 0; q < 40; ++q) {
      const Tokens ctx = random_tokens(rng, rng() % 10, alphabet);
      Tokens hist_ctx(seq.begin(), seq.begin() + static_cast<std::ptrdiff_t>(rng() % seq.size()));
      for (const Tokens& c : {ctx, hist_ctx}) {
        const int l = static_cast<int>(rng() % 10);
        ASSERT_EQ(trie.next_tokens(c, l), naive.next_tokens(c, l));
        ASSERT_EQ(trie.next_token_counts(c, l), naive.next_tokens(c, l));
        ASSERT_EQ(static_cast<std::size_t>(trie.match(c, l).length), naive.match(c, l).size());
      }
    }
  }
}

TEST(TrieTest, ExtractionsMatchNaive) {
  std::mt19937 rng(5);
  for (int round = 0; round < 25 * kScale; ++round) {
    const int depth = 2 + static_cast<int>(rng() % 7);
    const int alphabet = 2 + static_cast<int>(rng() % 12);
    const Tokens seq = repetitive_tokens(rng, 30 + rng() % 300, alphabet);
    ShortTermTrie trie({.max_depth = depth});
    trie.append(seq);
    NaiveTrie naive(depth);
    naive.insert(seq);
    for (int q = 0; q < 15; ++q) {
      const Tokens ctx(seq.begin(),
                       seq.begin() + static_cast<std::ptrdiff_t>(1 + rng() % seq.size()));
      const int l = static_cast<int>(rng() % 9);
      const int d = static_cast<int>(rng() % 20);
      const int budget = static_cast<int>(rng() % 40);
      ASSERT_EQ(trie.best_path(ctx, l, d), naive.best_path(ctx, l, d));
      ASSERT_EQ(trie.extract_dfs(ctx, l, d, budget), naive.extract_dfs(ctx, l, d, budget));
      const DraftSubtree bf = trie.extract_best_first(ctx, l, d, budget);
      ASSERT_EQ(bf, naive.extract_best_first(ctx, l, d, budget));
      for (std::size_t i = 0; i < bf.size(); ++i) {
        ASSERT_LT(bf.parents[i], static_cast<std::int32_t>(i));
        if (i > 0) {
          ASSERT_LE(bf.probs[i], bf.probs[i - 1]);
        }
      }
    }
  }
}

TEST(TrieTest, ExtractionHandExample) {
  ShortTermTrie trie({.max_depth = 4});
  // After "0": 1 twice (then 2, then 3), 5 once.
  trie.insert(Tokens{0, 1, 2, 9, 0, 1, 3, 9, 0, 5, 9});
  EXPECT_EQ(trie.best_path(Tokens{0}, 4, 3), (Tokens{1, 2, 9}));
  const DraftSubtree dfs = trie.extract_dfs(Tokens{0}, 4, 2, 10);
  EXPECT_EQ(dfs.tokens, (Tokens{1, 2, 3, 5, 9}));
  EXPECT_EQ(dfs.parents, (std::vector<std::int32_t>{-1, 0, 0, -1, 3}));
  EXPECT_EQ(dfs.counts, (std::vector<std::uint64_t>{2, 1, 1, 1, 1}));
  const DraftSubtree bf = trie.extract_best_first(Tokens{0}, 4, 2, 3);
  // 1 (2/3) first; then three candidates at 1/3: 5 was discovered before 2 and 3.
  EXPECT_EQ(bf.tokens, (Tokens{1, 5, 2}));
  EXPECT_EQ(bf.parents, (std::vector<std::int32_t>{-1, -1, 0}));
  EXPECT_DOUBLE_EQ(bf.probs[0], 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(bf.probs[1], 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(bf.probs[2], 1.0 / 3.0);
}

TEST(TrieTest, BestPathReanchorsPastMaxDepth) {
  ShortTermTrie trie({.max_depth = 3});
  const Tokens cycle{1, 2, 3, 4, 1, 2, 3, 4, 1, 2};
  trie.append(cycle);
  ASSERT_EQ(trie.best_path(Tokens{1, 2}, 2, 7), (Tokens{3, 4, 1, 2, 3, 4, 1}));
}

TEST(TrieTest, EvictionKeepsBudgetAndRecentHistory) {
  std::mt19937 rng(6);
  const int depth = 5;
  const std::size_t max_nodes = 400;
  ShortTermTrie trie({.max_depth = depth, .max_nodes = max_nodes, .auto_compact = rng() % 2 == 0});
  const Tokens stream = repetitive_tokens(rng, 5000, 50);
  std::size_t rebuild_start = 0;
  for (std::size_t i = 0; i < stream.size(); ++i) {
    const std::uint64_t before = trie.evictions();
    trie.append(stream[i]);
    ASSERT_LE(trie.node_count(), max_nodes);
    if (trie.evictions() != before) rebuild_start = i + 1 - trie.retained_history();
    if (i % 97 == 0 || i + 1 == stream.size()) {
      ASSERT_NO_THROW(trie.check_integrity());
      NaiveTrie naive(depth);
      naive.insert(TokenSpan(stream).subspan(rebuild_start, i + 1 - rebuild_start));
      expect_same(trie, naive);
    }
  }
  EXPECT_GT(trie.evictions(), 10u);
  // Inserting documents past the budget evicts too and stays consistent.
  for (int d = 0; d < 20; ++d) trie.insert(random_tokens(rng, 300, 1000));
  EXPECT_LE(trie.node_count(), max_nodes);
  EXPECT_NO_THROW(trie.check_integrity());
}

TEST(TrieTest, EdgeCases) {
  EXPECT_THROW(ShortTermTrie({.max_depth = 0}), std::invalid_argument);
  EXPECT_THROW(ShortTermTrie({.max_depth = 4, .max_nodes = 10}), std::invalid_argument);

  ShortTermTrie trie;
  trie.insert(Tokens{});
  trie.append(Tokens{});
  EXPECT_EQ(trie.node_count(), 1u);
  EXPECT_NO_THROW(trie.check_integrity());
  EXPECT_TRUE(trie.next_tokens(Tokens{}, 8).empty());
  EXPECT_TRUE(trie.best_path(Tokens{1}, 8, 16).empty());

  const Tokens extreme{INT32_MAX, INT32_MIN, -1, 0, INT32_MAX, INT32_MIN, -1, 0, INT32_MAX};
  trie.append(extreme);
  EXPECT_NO_THROW(trie.check_integrity());
  EXPECT_EQ(trie.next_tokens(Tokens{INT32_MAX}, 8), (std::vector<TokenCount>{{INT32_MIN, 2}}));
  EXPECT_EQ(trie.best_path(Tokens{-1}, 8, 3), (Tokens{0, INT32_MAX, INT32_MIN}));
  EXPECT_TRUE(trie.next_tokens(Tokens{INT32_MAX}, 0).empty());   // L = 0
  EXPECT_TRUE(trie.best_path(Tokens{INT32_MAX}, 8, 0).empty());  // depth 0
  EXPECT_TRUE(trie.extract_dfs(Tokens{INT32_MAX}, 8, 0, 5).empty());
  EXPECT_TRUE(trie.extract_dfs(Tokens{INT32_MAX}, 8, 5, 0).empty());
  EXPECT_TRUE(trie.extract_best_first(Tokens{INT32_MAX}, 0, 5, 5).empty());
  EXPECT_TRUE(trie.extract_best_first(Tokens{INT32_MAX}, 8, 5, -1).empty());

  // D = 1 stores single tokens only: nothing ever has a continuation.
  ShortTermTrie unigram({.max_depth = 1});
  unigram.append(Tokens{1, 1, 2});
  EXPECT_NO_THROW(unigram.check_integrity());
  EXPECT_EQ(unigram.total_windows(), 3u);
  EXPECT_FALSE(unigram.match(Tokens{1}, 8));

  trie.clear();
  EXPECT_EQ(trie.node_count(), 1u);
  EXPECT_EQ(trie.retained_history(), 0u);
  EXPECT_NO_THROW(trie.check_integrity());
}

TEST(TrieTest, MemoryIsAccounted) {
  ShortTermTrie trie;
  const std::size_t empty = trie.memory_bytes();
  std::mt19937 rng(7);
  trie.append(repetitive_tokens(rng, 20000, 5000));
  EXPECT_GT(trie.memory_bytes(), empty + trie.node_count() * 16);
  EXPECT_NO_THROW(trie.check_integrity());
}

}  // namespace
}  // namespace reader
