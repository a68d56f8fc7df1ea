// SearchPath and its tree and batch variants against a naive merge-and-rank reference, with
// fake sources (brute-force suffix matching over a text) and real tries.
#include <gtest/gtest.h>

#include <climits>
#include <map>
#include <random>
#include <stdexcept>

#include "naive_trie.h"
#include "reader/search.h"
#include "reader/trie.h"

namespace reader {
namespace {

using testing::kScale;

// Counts of what follows the longest suffix (<= L) of the context found in `text_` followed by
// at least one token; found by brute force.
class FakeSource final : public NextTokenSource {
 public:
  explicit FakeSource(Tokens text) : text_(std::move(text)) {}
  std::vector<TokenCount> next_token_counts(TokenSpan context, int max_suffix_len) const override {
    std::vector<TokenCount> out;
    append_next_token_counts(context, max_suffix_len, out);
    return out;
  }
  int append_next_token_counts(TokenSpan context, int max_suffix_len,
                               std::vector<TokenCount>& result) const override {
    const int longest = std::min(max_suffix_len, static_cast<int>(context.size()));
    for (int len = longest; len > 0; --len) {
      const TokenSpan s = context.last(static_cast<std::size_t>(len));
      std::map<Token, std::uint64_t> after;
      for (std::size_t i = 0; i + s.size() < text_.size(); ++i) {
        if (std::equal(s.begin(), s.end(), text_.begin() + static_cast<std::ptrdiff_t>(i))) {
          ++after[text_[i + s.size()]];
        }
      }
      if (!after.empty()) {
        std::vector<TokenCount> out;
        // Reverse token order, to check nothing relies on a source's ordering.
        for (auto it = after.rbegin(); it != after.rend(); ++it) {
          out.push_back({it->first, it->second});
        }
        result.insert(result.end(), out.begin(), out.end());
        return len;
      }
    }
    return 0;
  }

 private:
  Tokens text_;  // the indexed text
};

class ThrowingSource final : public NextTokenSource {
 public:
  std::vector<TokenCount> next_token_counts(TokenSpan, int) const override {
    throw std::runtime_error("source failed");
  }
};

std::vector<TokenCount> naive_ranked(TokenSpan context, const SearchOptions& opts,
                                     std::span<const NextTokenSource* const> sources) {
  // Only the sources with the longest matched suffix are merged.
  std::vector<std::pair<int, std::vector<TokenCount>>> per_source;
  int longest = 0;
  for (const NextTokenSource* s : sources) {
    std::vector<TokenCount> counts;
    const int len = s->append_next_token_counts(context, opts.max_suffix_len, counts);
    if (counts.empty()) continue;
    longest = std::max(longest, len);
    per_source.emplace_back(len, std::move(counts));
  }
  std::map<Token, std::uint64_t> merged;
  for (const auto& [len, counts] : per_source) {
    if (len != longest) continue;
    for (const TokenCount& c : counts) merged[c.token] += c.count;
  }
  std::vector<TokenCount> out;
  for (const auto& [t, c] : merged) out.push_back({t, c});
  std::stable_sort(out.begin(), out.end(),
                   [](const TokenCount& a, const TokenCount& b) { return a.count > b.count; });
  return out;
}

Tokens naive_search_path(TokenSpan context, const SearchOptions& opts,
                         std::span<const NextTokenSource* const> sources) {
  Tokens ctx(context.begin(), context.end());
  Tokens path;
  if (opts.max_suffix_len <= 0) return path;
  for (int i = 0; i < opts.depth; ++i) {
    const std::vector<TokenCount> ranked = naive_ranked(ctx, opts, sources);
    if (ranked.empty() ||
        ranked[0].count < static_cast<std::uint64_t>(std::max(1, opts.min_count))) {
      break;
    }
    path.push_back(ranked[0].token);
    ctx.push_back(ranked[0].token);
  }
  return path;
}

DraftSubtree naive_search_tree(TokenSpan context, const SearchOptions& opts, int top_k, int budget,
                               std::span<const NextTokenSource* const> sources) {
  DraftSubtree out;
  if (opts.max_suffix_len <= 0 || opts.depth <= 0 || top_k <= 0 || budget <= 0) return out;
  struct Item {
    std::int32_t index;
    Tokens ctx;
    int depth;
    double prob;
  };
  std::vector<Item> queue{{-1, Tokens(context.begin(), context.end()), 0, 1.0}};
  for (std::size_t q = 0; q < queue.size(); ++q) {
    const Item item = queue[q];
    if (item.depth >= opts.depth) continue;
    const std::vector<TokenCount> ranked = naive_ranked(item.ctx, opts, sources);
    std::uint64_t total = 0;
    for (const TokenCount& c : ranked) total += c.count;
    for (int k = 0; k < top_k && k < static_cast<int>(ranked.size()); ++k) {
      if (out.size() >= static_cast<std::size_t>(budget)) return out;
      const TokenCount& c = ranked[static_cast<std::size_t>(k)];
      if (c.count < static_cast<std::uint64_t>(std::max(1, opts.min_count))) break;
      const double p = item.prob * (static_cast<double>(c.count) / static_cast<double>(total));
      out.push(c.token, item.index, c.count, p);
      Tokens ctx = item.ctx;
      ctx.push_back(c.token);
      queue.push_back({static_cast<std::int32_t>(out.size() - 1), ctx, item.depth + 1, p});
    }
  }
  return out;
}

Tokens random_text(std::mt19937& rng, std::size_t n, int alphabet) {
  Tokens out;
  while (out.size() < n) {
    if (out.size() > 3 && rng() % 3 == 0) {
      const std::size_t from = rng() % out.size();
      for (std::size_t i = 0; i < 1 + rng() % 8 && out.size() < n; ++i)
        out.push_back(out[from + i]);
    } else {
      out.push_back(static_cast<Token>(rng() % static_cast<unsigned>(alphabet)));
    }
  }
  return out;
}

TEST(SearchTest, PathMatchesNaiveWithFakeSources) {
  std::mt19937 rng(11);
  for (int round = 0; round < 150 * kScale; ++round) {
    const int alphabet = 2 + static_cast<int>(rng() % 6);
    std::vector<FakeSource> fakes;
    const int n = static_cast<int>(rng() % 4);
    for (int i = 0; i < n; ++i) fakes.emplace_back(random_text(rng, rng() % 80, alphabet));
    std::vector<const NextTokenSource*> sources;
    for (const FakeSource& f : fakes) sources.push_back(&f);
    const SearchOptions opts{.max_suffix_len = static_cast<int>(rng() % 6),
                             .depth = static_cast<int>(rng() % 20),
                             .min_count = static_cast<int>(rng() % 3)};
    const Tokens ctx = random_text(rng, rng() % 10, alphabet);
    ASSERT_EQ(search_path(ctx, opts, sources), naive_search_path(ctx, opts, sources));
  }
}

TEST(SearchTest, PathMatchesNaiveWithTrieAndFakeSource) {
  std::mt19937 rng(12);
  for (int round = 0; round < 60 * kScale; ++round) {
    const int alphabet = 2 + static_cast<int>(rng() % 10);
    const Tokens history = random_text(rng, 20 + rng() % 200, alphabet);
    ShortTermTrie trie({.max_depth = 2 + static_cast<int>(rng() % 10)});
    trie.append(history);
    const FakeSource fake(random_text(rng, rng() % 200, alphabet));
    const std::vector<const NextTokenSource*> both{&trie, &fake};
    const std::vector<const NextTokenSource*> trie_only{&trie};
    const SearchOptions opts{.max_suffix_len = 1 + static_cast<int>(rng() % 8), .depth = 16};
    for (const auto& sources : {both, trie_only}) {
      ASSERT_EQ(search_path(history, opts, sources), naive_search_path(history, opts, sources));
    }
  }
}

TEST(SearchTest, HandExampleMergesCounts) {
  // After "1": source a says 2 (x3), 3 (x2); source b says 3 (x2), 4 (x4). Merged: 2:3, 3:4,
  // 4:4, and between the tied 3 and 4 the lower token wins.
  const FakeSource a(Tokens{1, 2, 1, 2, 1, 2, 1, 3, 1, 3});
  const FakeSource b(Tokens{1, 3, 1, 3, 1, 4, 1, 4, 1, 4, 1, 4});
  const std::vector<const NextTokenSource*> sources{&a, &b};
  const Tokens path = search_path(Tokens{1}, {.max_suffix_len = 1, .depth = 1}, sources);
  EXPECT_EQ(path, (Tokens{3}));
  const std::vector<const NextTokenSource*> only_a{&a};
  EXPECT_EQ(search_path(Tokens{1}, {.max_suffix_len = 1, .depth = 1}, only_a), (Tokens{2}));
  // min_count 5 rejects every merged candidate (max is 4).
  EXPECT_TRUE(
      search_path(Tokens{1}, {.max_suffix_len = 1, .depth = 3, .min_count = 5}, sources).empty());
}

TEST(SearchTest, LongestMatchWinsOverHigherCounts) {
  // Source a matches "5 1" (2 tokens) and says 7; source b only matches "1" and says 9 many
  // times. The longer, more specific match decides.
  const FakeSource a(Tokens{5, 1, 7});
  const FakeSource b(Tokens{1, 9, 1, 9, 1, 9, 1, 9});
  const std::vector<const NextTokenSource*> sources{&a, &b};
  EXPECT_EQ(search_path(Tokens{5, 1}, {.max_suffix_len = 2, .depth = 1}, sources), (Tokens{7}));
  const std::vector<SearchStep> steps =
      search_path_steps(Tokens{5, 1}, {.max_suffix_len = 2, .depth = 1}, sources);
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0].match_len, 2);
  EXPECT_EQ(steps[0].count, 1u);
  EXPECT_EQ(steps[0].total, 1u);
}

TEST(SearchTest, StepsSayWhichSourcesMatchedAndWhichAgree) {
  // Per level: `sources` marks the sources whose match is the longest, `agreeing` those whose
  // own best guess (highest count at their own longest match, lower token on ties) was drafted.
  std::mt19937 rng(29);
  for (int round = 0; round < 100 * kScale; ++round) {
    const int alphabet = 2 + static_cast<int>(rng() % 5);
    const Tokens history = random_text(rng, 10 + rng() % 100, alphabet);
    ShortTermTrie trie({.max_depth = 2 + static_cast<int>(rng() % 6)});
    trie.append(history);
    const FakeSource a(random_text(rng, rng() % 80, alphabet));
    const FakeSource b(random_text(rng, rng() % 80, alphabet));
    const std::vector<const NextTokenSource*> sources{&trie, &a, &b};
    const SearchOptions opts{.max_suffix_len = 1 + static_cast<int>(rng() % 5),
                             .depth = 1 + static_cast<int>(rng() % 5)};
    Tokens ctx = history;
    for (const SearchStep& step : search_path_steps(history, opts, sources)) {
      std::vector<int> lens;
      std::vector<std::int64_t> tops;
      for (const NextTokenSource* s : sources) {
        std::vector<TokenCount> counts;
        const int len = s->append_next_token_counts(ctx, opts.max_suffix_len, counts);
        lens.push_back(counts.empty() ? 0 : len);
        std::int64_t top = -1;
        std::uint64_t best = 0;
        for (const TokenCount& c : counts)
          if (c.count > best || (c.count == best && c.token < top)) {
            best = c.count;
            top = c.token;
          }
        tops.push_back(counts.empty() ? -1 : top);
      }
      const int longest = *std::max_element(lens.begin(), lens.end());
      std::uint32_t matched = 0, agreeing = 0;
      for (std::size_t k = 0; k < sources.size(); ++k) {
        if (lens[k] == longest && tops[k] >= 0) matched |= 1u << k;
        if (tops[k] == static_cast<std::int64_t>(step.token)) agreeing |= 1u << k;
      }
      ASSERT_EQ(step.sources, matched);
      ASSERT_EQ(step.agreeing, agreeing);
      ctx.push_back(step.token);
    }
  }
}

TEST(SearchTest, TreeMatchesNaive) {
  std::mt19937 rng(13);
  for (int round = 0; round < 100 * kScale; ++round) {
    const int alphabet = 2 + static_cast<int>(rng() % 6);
    const Tokens history = random_text(rng, 10 + rng() % 150, alphabet);
    ShortTermTrie trie({.max_depth = 2 + static_cast<int>(rng() % 8)});
    trie.append(history);
    const FakeSource fake(random_text(rng, rng() % 100, alphabet));
    const std::vector<const NextTokenSource*> sources{&trie, &fake};
    const SearchOptions opts{.max_suffix_len = static_cast<int>(rng() % 6),
                             .depth = static_cast<int>(rng() % 6),
                             .min_count = 1 + static_cast<int>(rng() % 2)};
    const int top_k = static_cast<int>(rng() % 4);
    const int budget = static_cast<int>(rng() % 30);
    const DraftSubtree tree = search_tree(history, opts, top_k, budget, sources);
    ASSERT_EQ(tree, naive_search_tree(history, opts, top_k, budget, sources));
    ASSERT_LE(tree.size(), static_cast<std::size_t>(std::max(budget, 0)));
  }
}

TEST(SearchTest, TreeWithTopOneIsThePath) {
  std::mt19937 rng(14);
  const Tokens history = random_text(rng, 500, 5);
  ShortTermTrie trie;
  trie.append(history);
  const std::vector<const NextTokenSource*> sources{&trie};
  const SearchOptions opts{.max_suffix_len = 6, .depth = 12};
  const DraftSubtree tree = search_tree(history, opts, 1, 100, sources);
  EXPECT_EQ(tree.tokens, search_path(history, opts, sources));
}

TEST(SearchTest, BatchEqualsSequential) {
  std::mt19937 rng(15);
  const Tokens history = random_text(rng, 5000, 30);
  ShortTermTrie trie;
  trie.append(history);
  const FakeSource fake(random_text(rng, 300, 30));
  const std::vector<const NextTokenSource*> sources{&trie, &fake};
  std::vector<Tokens> contexts;
  for (int i = 0; i < 37; ++i) {
    contexts.emplace_back(history.begin(),
                          history.begin() + static_cast<std::ptrdiff_t>(rng() % history.size()));
  }
  const SearchOptions opts{.max_suffix_len = 6, .depth = 16};
  std::vector<Tokens> expected;
  for (const Tokens& c : contexts) expected.push_back(search_path(c, opts, sources));
  for (const int threads : {0, 1, 2, 4, 64}) {
    EXPECT_EQ(search_path_batch(contexts, opts, sources, threads), expected) << threads;
  }
  EXPECT_TRUE(search_path_batch({}, opts, sources, 4).empty());
}

TEST(SearchTest, BatchPropagatesSourceErrors) {
  const ThrowingSource bad;
  const std::vector<const NextTokenSource*> sources{&bad};
  const std::vector<Tokens> contexts(5, Tokens{1, 2});
  EXPECT_THROW(search_path_batch(contexts, {}, sources, 3), std::runtime_error);
}

TEST(SearchTest, EdgeCases) {
  ShortTermTrie trie;
  trie.append(Tokens{INT32_MAX, INT32_MIN, INT32_MAX, INT32_MIN, INT32_MAX});
  const std::vector<const NextTokenSource*> sources{&trie};
  EXPECT_EQ(search_path(Tokens{INT32_MAX}, {.max_suffix_len = 4, .depth = 3}, sources),
            (Tokens{INT32_MIN, INT32_MAX, INT32_MIN}));
  EXPECT_TRUE(search_path(Tokens{INT32_MAX}, {.depth = 0}, sources).empty());
  EXPECT_TRUE(search_path(Tokens{INT32_MAX}, {.max_suffix_len = 0}, sources).empty());
  EXPECT_TRUE(search_path(Tokens{}, {}, sources).empty());
  EXPECT_TRUE(search_path(Tokens{INT32_MAX}, {}, {}).empty());
  EXPECT_TRUE(search_tree(Tokens{INT32_MAX}, {}, 0, 10, sources).empty());
  EXPECT_TRUE(search_tree(Tokens{INT32_MAX}, {}, 2, 0, sources).empty());
  EXPECT_TRUE(search_tree(Tokens{}, {}, 2, 10, sources).empty());
}

}  // namespace
}  // namespace reader
