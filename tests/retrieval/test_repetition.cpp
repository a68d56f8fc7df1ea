// Self-repetition metric against an O(n^2)+ reference that follows the paper's three steps
// literally, plus hand-computed examples.
#include <gtest/gtest.h>

#include <chrono>
#include <climits>
#include <random>

#include "naive_trie.h"
#include "reader/repetition.h"

namespace reader {
namespace {

using testing::kScale;

std::size_t common_prefix(TokenSpan a, TokenSpan b) {
  std::size_t n = 0;
  while (n < a.size() && n < b.size() && a[n] == b[n]) ++n;
  return n;
}

// Longest substring starting at response[ptr] occurring inside the prompt, or starting in the
// response before ptr (it may run past ptr).
std::size_t naive_factor(TokenSpan prompt, TokenSpan response, std::size_t ptr) {
  const TokenSpan rest = response.subspan(ptr);
  std::size_t best = 0;
  for (std::size_t j = 0; j < prompt.size(); ++j) {
    best = std::max(best, common_prefix(prompt.subspan(j), rest));
  }
  for (std::size_t j = 0; j < ptr; ++j)
    best = std::max(best, common_prefix(response.subspan(j), rest));
  return best;
}

// A brute-force "datastore".
class FakeMatcher final : public ExternalMatcher {
 public:
  explicit FakeMatcher(Tokens text) : text_(std::move(text)) {}
  std::size_t longest_match_from(TokenSpan needle) const override {
    std::size_t best = 0;
    for (std::size_t j = 0; j < text_.size(); ++j) {
      best = std::max(best, common_prefix(TokenSpan(text_).subspan(j), needle));
    }
    return best;
  }

 private:
  Tokens text_;  // the external text
};

RepetitionStats naive_self_repetition(TokenSpan prompt, TokenSpan response,
                                      const ExternalMatcher* external = nullptr) {
  RepetitionStats s;
  s.response_tokens = response.size();
  for (std::size_t ptr = 0; ptr < response.size();) {
    std::size_t len = naive_factor(prompt, response, ptr);
    if (external != nullptr)
      len = std::max(len, external->longest_match_from(response.subspan(ptr)));
    ++s.advances;
    s.matched_tokens += len;
    s.longest_match = std::max(s.longest_match, len);
    ptr += std::max<std::size_t>(len, 1);
  }
  s.metric = s.advances == 0
                 ? 0.0
                 : static_cast<double>(s.response_tokens) / static_cast<double>(s.advances);
  return s;
}

void expect_stats_eq(const RepetitionStats& a, const RepetitionStats& b) {
  EXPECT_EQ(a.response_tokens, b.response_tokens);
  EXPECT_EQ(a.advances, b.advances);
  EXPECT_EQ(a.matched_tokens, b.matched_tokens);
  EXPECT_EQ(a.longest_match, b.longest_match);
  EXPECT_DOUBLE_EQ(a.metric, b.metric);
}

Tokens random_text(std::mt19937& rng, std::size_t n, int alphabet) {
  Tokens out;
  while (out.size() < n) {
    if (out.size() > 2 && rng() % 2 == 0) {
      const std::size_t from = rng() % out.size();
      const std::size_t len = 1 + rng() % 30;  // long repeats, overlapping copies included
      for (std::size_t i = 0; i < len && out.size() < n; ++i) out.push_back(out[from + i]);
    } else {
      out.push_back(static_cast<Token>(rng() % static_cast<unsigned>(alphabet)));
    }
  }
  return out;
}

TEST(RepetitionTest, HandExamples) {
  // Prompt covers "1 2 3"; "4" is new; then "1 2 3 4" repeats the response's own start.
  RepetitionStats s = self_repetition(Tokens{1, 2, 3}, Tokens{1, 2, 3, 4, 1, 2, 3, 4});
  EXPECT_EQ(s.advances, 3u);
  EXPECT_DOUBLE_EQ(s.metric, 8.0 / 3.0);
  EXPECT_EQ(s.matched_tokens, 7u);
  EXPECT_EQ(s.longest_match, 4u);

  // Self-overlapping copy: after one "7", the rest is matched at once (LZ77-style).
  s = self_repetition(Tokens{}, Tokens{7, 7, 7, 7, 7, 7});
  EXPECT_EQ(s.advances, 2u);
  EXPECT_DOUBLE_EQ(s.metric, 3.0);
  EXPECT_EQ(s.longest_match, 5u);

  // Nothing repeats: one advance per token.
  s = self_repetition(Tokens{9}, Tokens{1, 2, 3});
  EXPECT_EQ(s.advances, 3u);
  EXPECT_DOUBLE_EQ(s.metric, 1.0);
  EXPECT_EQ(s.matched_tokens, 0u);

  // Matches do not straddle the prompt/response boundary: "5 6" is not in the prompt.
  s = self_repetition(Tokens{4, 5}, Tokens{6, 5, 6});
  EXPECT_EQ(s.advances, 3u);  // 6 new, 5 from prompt (len 1), 6 from response (len 1)

  // The datastore can extend a match beyond what history offers.
  const FakeMatcher store(Tokens{0, 1, 2, 3, 4, 5});
  s = self_repetition(Tokens{1, 2}, Tokens{1, 2, 3, 4, 9}, &store);
  EXPECT_EQ(s.advances, 2u);
  EXPECT_EQ(s.longest_match, 4u);
}

TEST(RepetitionTest, LongestPreviousFactorsMatchNaive) {
  std::mt19937 rng(21);
  for (int round = 0; round < 300 * kScale; ++round) {
    const int alphabet = 1 + static_cast<int>(rng() % 4);
    const Tokens prompt = random_text(rng, rng() % 40, alphabet);
    const Tokens response = random_text(rng, rng() % 60, alphabet);
    const std::vector<std::size_t> lpf = longest_previous_factors(prompt, response);
    ASSERT_EQ(lpf.size(), response.size());
    for (std::size_t i = 0; i < response.size(); ++i) {
      ASSERT_EQ(lpf[i], naive_factor(prompt, response, i)) << "round " << round << " pos " << i;
    }
  }
}

TEST(RepetitionTest, MetricMatchesNaive) {
  std::mt19937 rng(22);
  for (int round = 0; round < 300 * kScale; ++round) {
    const int alphabet = 1 + static_cast<int>(rng() % 6);
    const Tokens prompt = random_text(rng, rng() % 100, alphabet);
    const Tokens response = random_text(rng, rng() % 200, alphabet);
    expect_stats_eq(self_repetition(prompt, response), naive_self_repetition(prompt, response));
    const FakeMatcher store(random_text(rng, rng() % 100, alphabet));
    expect_stats_eq(self_repetition(prompt, response, &store),
                    naive_self_repetition(prompt, response, &store));
  }
}

TEST(RepetitionTest, LargeAlphabetAndExtremeTokens) {
  std::mt19937 rng(23);
  Tokens prompt = random_text(rng, 500, 1000);
  Tokens response = random_text(rng, 800, 1000);
  for (Token& t : prompt) t = t % 3 == 0 ? INT32_MAX - t : INT32_MIN + t;
  for (Token& t : response) t = t % 3 == 0 ? INT32_MAX - t : INT32_MIN + t;
  expect_stats_eq(self_repetition(prompt, response), naive_self_repetition(prompt, response));
}

TEST(RepetitionTest, EmptyInputs) {
  const RepetitionStats s = self_repetition(Tokens{1, 2}, Tokens{});
  EXPECT_EQ(s.response_tokens, 0u);
  EXPECT_EQ(s.advances, 0u);
  EXPECT_EQ(s.metric, 0.0);
  EXPECT_TRUE(longest_previous_factors(Tokens{}, Tokens{}).empty());
  expect_stats_eq(self_repetition(Tokens{}, Tokens{5}), naive_self_repetition(Tokens{}, Tokens{5}));
}

TEST(RepetitionTest, ScalesToLongTexts) {
  std::mt19937 rng(24);
  const Tokens prompt = random_text(rng, 100000, 50000);
  const Tokens response = random_text(rng, 100000, 50000);
  const auto start = std::chrono::steady_clock::now();
  const RepetitionStats s = self_repetition(prompt, response);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_GT(s.metric, 1.0);
  EXPECT_LT(seconds, 5.0);  // generous: sanitizer builds are slow
}

}  // namespace
}  // namespace reader
