// Suffix-array construction checked against a naive sort, for every algorithm and index width.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "reader/suffix_array.h"
#include "retrieval/sais.h"

namespace reader {
namespace {

std::vector<std::uint32_t> naive_suffix_array(const Tokens& text) {
  std::vector<std::uint32_t> sa(text.size());
  std::iota(sa.begin(), sa.end(), 0u);
  std::sort(sa.begin(), sa.end(), [&text](std::uint32_t a, std::uint32_t b) {
    return std::lexicographical_compare(text.begin() + a, text.end(), text.begin() + b, text.end());
  });
  return sa;
}

// The 64-bit index path only runs above 2^31 tokens in production; exercise it directly.
std::vector<std::uint32_t> sais64(const Tokens& text, std::uint32_t alphabet) {
  std::vector<std::int64_t> wide(text.size());
  detail::sais<std::int64_t, Token>(text.data(), wide.data(),
                                    static_cast<std::int64_t>(text.size()), alphabet, nullptr, 0);
  return {wide.begin(), wide.end()};
}

std::vector<SuffixArrayAlgorithm> algorithms() {
  std::vector<SuffixArrayAlgorithm> out = {SuffixArrayAlgorithm::kAuto,
                                           SuffixArrayAlgorithm::kSais};
  if (divsufsort_available()) out.push_back(SuffixArrayAlgorithm::kDivsufsort);
  return out;
}

void expect_all_match_naive(const Tokens& text, std::uint32_t alphabet) {
  const auto expected = naive_suffix_array(text);
  for (auto algorithm : algorithms()) {
    EXPECT_EQ(build_suffix_array(text, alphabet, algorithm), expected)
        << "algorithm " << static_cast<int>(algorithm) << ", n=" << text.size();
  }
  if (alphabet <= (1u << 20)) {  // the direct call skips alphabet compaction: keep buckets small
    EXPECT_EQ(sais64(text, alphabet), expected) << "64-bit SA-IS, n=" << text.size();
  }
}

Tokens random_text(std::mt19937_64& rng, std::size_t n, std::uint32_t alphabet) {
  std::uniform_int_distribution<Token> symbol(0, static_cast<Token>(alphabet) - 1);
  Tokens text(n);
  for (auto& t : text) t = symbol(rng);
  return text;
}

TEST(SuffixArray, EmptyAndSingleToken) {
  expect_all_match_naive({}, 1);
  expect_all_match_naive({0}, 1);
  expect_all_match_naive({7}, 8);
}

TEST(SuffixArray, SmallKnownExample) {
  // "banana" with a=0, b=1, n=2: suffixes a, ana, anana, banana, na, nana.
  const Tokens banana = {1, 0, 2, 0, 2, 0};
  const std::vector<std::uint32_t> expected = {5, 3, 1, 0, 4, 2};
  for (auto algorithm : algorithms()) {
    EXPECT_EQ(build_suffix_array(banana, 3, algorithm), expected);
  }
}

TEST(SuffixArray, TinyAlphabetsManySeeds) {
  std::mt19937_64 rng(1234);
  for (std::uint32_t alphabet : {1u, 2u, 3u}) {
    for (int seed = 0; seed < 60; ++seed) {
      const std::size_t n = std::uniform_int_distribution<std::size_t>(0, 300)(rng);
      expect_all_match_naive(random_text(rng, n, alphabet), alphabet);
    }
  }
}

TEST(SuffixArray, LongRepeats) {
  for (std::size_t n : {2u, 3u, 17u, 1000u, 2000u}) {
    expect_all_match_naive(Tokens(n, 0), 1);  // all the same symbol
    expect_all_match_naive(Tokens(n, 4), 5);  // same, with unused smaller symbols
  }
  std::mt19937_64 rng(99);
  for (std::size_t period : {1u, 2u, 3u, 7u, 64u}) {
    const Tokens unit = random_text(rng, period, 4);
    Tokens text;
    while (text.size() < 1500) text.insert(text.end(), unit.begin(), unit.end());
    expect_all_match_naive(text, 4);
    text.push_back(3);  // a break at the end changes every comparison's tail
    expect_all_match_naive(text, 4);
  }
  // Descending, ascending and mirror texts hit the all-L / all-S corner cases.
  Tokens down(500), up(500);
  for (int i = 0; i < 500; ++i) {
    down[i] = 499 - i;
    up[i] = i;
  }
  expect_all_match_naive(down, 500);
  expect_all_match_naive(up, 500);
}

TEST(SuffixArray, LargeAlphabetMatchesNaive) {
  std::mt19937_64 rng(7);
  for (int seed = 0; seed < 10; ++seed) {
    expect_all_match_naive(random_text(rng, 1500, 70000), 70000);  // 3-byte divsufsort width
  }
  const Tokens wide = {(1 << 24) + 5, 3, (1 << 24) + 5, 3, 0};  // 4-byte divsufsort width
  expect_all_match_naive(wide, (1 << 24) + 6);
}

TEST(SuffixArray, RejectsTokensOutsideAlphabet) {
  EXPECT_THROW(build_suffix_array(Tokens{0, 1, 5}, 5), std::invalid_argument);
  EXPECT_THROW(build_suffix_array(Tokens{0, -1, 2}, 5), std::invalid_argument);
  try {
    build_suffix_array(Tokens{0, 9}, 5);
    FAIL() << "expected a throw";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("token id 9 at position 1"), std::string::npos)
        << e.what();
  }
}

// Random lengths 0..2000 over alphabets from 1 to 1000, with injected copies so long repeats
// (the hard case for induced sorting's recursion) show up often.
RC_GTEST_PROP(SuffixArrayProperty, MatchesNaiveSort, ()) {
  const bool tiny = *rc::gen::arbitrary<bool>();
  const auto alphabet =
      tiny ? *rc::gen::inRange<std::uint32_t>(1, 4) : *rc::gen::inRange<std::uint32_t>(1, 1001);
  const auto n = *rc::gen::inRange<std::size_t>(0, 2001);
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  std::mt19937_64 rng(seed);
  Tokens text = random_text(rng, n, alphabet);
  for (int copies = 0; copies < 4 && n > 20; ++copies) {
    const std::size_t len = std::uniform_int_distribution<std::size_t>(1, n / 4)(rng);
    const std::size_t from = std::uniform_int_distribution<std::size_t>(0, n - len)(rng);
    const std::size_t to = std::uniform_int_distribution<std::size_t>(0, n - len)(rng);
    std::copy_n(Tokens(text.begin() + from, text.begin() + from + len).begin(), len,
                text.begin() + to);
  }
  const auto expected = naive_suffix_array(text);
  for (auto algorithm : algorithms()) {
    RC_ASSERT(build_suffix_array(text, alphabet, algorithm) == expected);
  }
  RC_ASSERT(sais64(text, alphabet) == expected);
}

}  // namespace
}  // namespace reader
