// find_context_copy against a brute-force reference: every earlier position, every match
// length, the longest and then the newest kept.
#include <gtest/gtest.h>

#include <random>

#include "naive_trie.h"
#include "reader/context_copy.h"

namespace reader {
namespace {

using testing::kScale;

ContextCopy naive_copy(const Tokens& c, int max_match, int depth, int window) {
  ContextCopy best;
  const int n = static_cast<int>(c.size());
  if (n < 2 || max_match < 1 || depth < 1 || window < 1) return best;
  int best_p = -1;
  for (int p = std::max(0, n - 1 - window); p <= n - 2; ++p) {
    int len = 0;
    while (len < max_match && p - len >= 0 && c[p - len] == c[n - 1 - len]) ++len;
    if (len > 0 && len >= best.match_len) {  // later positions win ties
      best.match_len = len;
      best_p = p;
    }
  }
  if (best_p >= 0)
    best.tokens.assign(c.begin() + best_p + 1, c.begin() + std::min(n, best_p + 1 + depth));
  return best;
}

TEST(ContextCopyTest, FollowsTheLatestLongestRepeat) {
  // "a b c x" and "a b c y" both precede "... b c": the longer match "a b c" wins at the
  // newer place.
  const Tokens c = {9, 1, 2, 3, 7, 1, 2, 3, 8, 5, 1, 2, 3};
  const ContextCopy copy = find_context_copy(c, 32, 4, 1000);
  EXPECT_EQ(copy.match_len, 3);
  EXPECT_EQ(copy.tokens, (Tokens{8, 5, 1, 2}));
  // A longer match further back beats a newer shorter one.
  const Tokens d = {4, 1, 2, 3, 6, 0, 2, 3, 5, 4, 1, 2, 3};
  EXPECT_EQ(find_context_copy(d, 32, 2, 1000).tokens, (Tokens{6, 0}));
  EXPECT_EQ(find_context_copy(d, 32, 2, 1000).match_len, 4);
  // max_match caps the match: then the newest occurrence of the capped suffix wins.
  EXPECT_EQ(find_context_copy(d, 2, 2, 1000).tokens, (Tokens{5, 4}));
}

TEST(ContextCopyTest, NothingWithoutAnEarlierOccurrence) {
  EXPECT_TRUE(find_context_copy(Tokens{1, 2, 3}, 8, 8, 100).tokens.empty());
  EXPECT_TRUE(find_context_copy(Tokens{1}, 8, 8, 100).tokens.empty());
  EXPECT_TRUE(find_context_copy(Tokens{}, 8, 8, 100).tokens.empty());
  // The window hides older occurrences; a repeat of the last token continues into itself.
  EXPECT_TRUE(find_context_copy(Tokens{5, 6, 1, 2, 5}, 8, 8, 3).tokens.empty());
  EXPECT_EQ(find_context_copy(Tokens{5, 5, 5}, 8, 8, 100).tokens, (Tokens{5}));
}

TEST(ContextCopyTest, AgreesWithBruteForce) {
  std::mt19937 rng(27);
  for (int round = 0; round < 3000 * kScale; ++round) {
    const int n = static_cast<int>(rng() % 60);
    const int vocab = 1 + static_cast<int>(rng() % 4);
    Tokens c(static_cast<size_t>(n));
    for (Token& t : c) t = static_cast<Token>(rng() % static_cast<unsigned>(vocab));
    const int max_match = 1 + static_cast<int>(rng() % 8), depth = 1 + static_cast<int>(rng() % 10);
    const int window = 1 + static_cast<int>(rng() % 70);
    const ContextCopy got = find_context_copy(c, max_match, depth, window);
    const ContextCopy want = naive_copy(c, max_match, depth, window);
    ASSERT_EQ(got.match_len, want.match_len) << "round " << round;
    ASSERT_EQ(got.tokens, want.tokens) << "round " << round;
  }
}

}  // namespace
}  // namespace reader
