// The sampling policy (temperature, top-k, top-p, the seeded draw) against a naive
// reference written here the obvious way, on random rows and parameters. Losslessness under
// sampling needs the speculative engine and AR decoding to apply exactly this policy, so a
// wrong filter would be invisible to the lossless tests: both engines would share it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <set>

#include "reader/sampling.h"

namespace reader {
namespace {

// What the policy keeps and how much weight each kept token gets, computed the obvious way.
struct ReferenceKept {
  std::vector<Token> tokens;    // kept tokens in id order (the order of the inverse CDF)
  std::vector<double> weights;  // unnormalized softmax weight of each kept token
  bool ambiguous_cut = false;   // the top-p cut sits within rounding of its threshold
};

// The same weight expression as the policy (float scaling, then exp in double), so that
// reference and policy agree to the bit wherever the algorithm is right.
double reference_weight(float logit, float max_logit, float temperature) {
  return std::exp(static_cast<double>((logit - max_logit) * (1.0f / temperature)));
}

// Rank every token (logit desc, id asc), keep the top k, then the shortest head of that
// ranking whose weight reaches top_p of the kept weight (at least one token).
ReferenceKept reference_kept(const std::vector<float>& logits, const SamplingParams& p) {
  const int n = static_cast<int>(logits.size());
  const float max_logit = *std::max_element(logits.begin(), logits.end());
  const auto w = [&](Token t) {
    return reference_weight(logits[static_cast<size_t>(t)], max_logit, p.temperature);
  };
  std::vector<Token> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](Token a, Token b) {
    const float la = logits[static_cast<size_t>(a)], lb = logits[static_cast<size_t>(b)];
    return la != lb ? la > lb : a < b;
  });
  // The policy's support: tokens within 40 temperatures of the best logit (weight >= e^-40).
  const float cutoff = max_logit - 40.0f * p.temperature;
  order.erase(std::remove_if(order.begin(), order.end(),
                             [&](Token t) { return logits[static_cast<size_t>(t)] < cutoff; }),
              order.end());
  if (p.top_k > 0 && static_cast<size_t>(p.top_k) < order.size())
    order.resize(static_cast<size_t>(p.top_k));
  ReferenceKept r;
  if (p.top_p < 1.0f) {
    double total = 0;
    for (Token t : order) total += w(t);
    const double threshold = static_cast<double>(p.top_p) * total;
    std::vector<double> prefix = {0.0};  // prefix[c] = weight of the first c ranked tokens
    for (Token t : order) prefix.push_back(prefix.back() + w(t));
    size_t cut = 0;
    while (cut < order.size() && prefix[cut] < threshold) ++cut;
    cut = std::max<size_t>(cut, 1);
    // The policy sums the kept weight in another order: a cut this close to the threshold
    // may fall either way (one token is kept whatever the threshold, so cut 1 is certain).
    const double slack = 1e-12 * total;
    r.ambiguous_cut = cut > 1 && (std::fabs(prefix[cut] - threshold) <= slack ||
                                  std::fabs(prefix[cut - 1] - threshold) <= slack);
    order.resize(cut);
  }
  std::sort(order.begin(), order.end());
  r.tokens = order;
  for (Token t : order) r.weights.push_back(w(t));
  return r;
}

// Inverse CDF over the kept tokens in id order, at uniform u. `ambiguous` is set when u falls
// within rounding of a boundary between two tokens.
Token reference_draw(const ReferenceKept& kept, double u, bool* ambiguous) {
  const double total = std::accumulate(kept.weights.begin(), kept.weights.end(), 0.0);
  const double target = u * total;
  double acc = 0;
  *ambiguous = false;
  for (size_t i = 0; i < kept.tokens.size(); ++i) {
    acc += kept.weights[i];
    if (std::fabs(target - acc) <= 1e-12 * total) *ambiguous = true;
    if (target < acc) return kept.tokens[i];
  }
  return kept.tokens.back();
}

// Random rows of several kinds: wide and flat spreads, and rounded logits full of ties.
std::vector<float> random_row(std::mt19937& rng, int n) {
  const float spreads[] = {0.01f, 0.5f, 2.0f, 10.0f};
  const float spread = spreads[rng() % 4];
  const bool rounded = rng() % 3 == 0;
  std::normal_distribution<float> normal(0.0f, spread);
  std::vector<float> row(static_cast<size_t>(n));
  for (float& l : row) l = rounded ? std::round(normal(rng)) : normal(rng);
  return row;
}

SamplingParams random_params(std::mt19937& rng, int n) {
  SamplingParams p;
  const float temps[] = {1e-5f, 0.1f, 0.8f, 1.0f, 2.5f};
  p.temperature = temps[rng() % 5];
  switch (rng() % 4) {  // top-k off, 1, inside the vocabulary, or past it
    case 0:
      p.top_k = 0;
      break;
    case 1:
      p.top_k = 1;
      break;
    case 2:
      p.top_k = 1 + static_cast<int>(rng() % static_cast<unsigned>(n));
      break;
    default:
      p.top_k = n + static_cast<int>(rng() % 5);
  }
  const float top_ps[] = {1.0f, 0.0f, 0.05f, 0.5f, 0.9f, 0.95f, 0.999f};
  p.top_p = top_ps[rng() % 7];
  p.seed = rng();
  return p;
}

TEST(SamplingPropertyTest, FilteredDrawMatchesNaiveReference) {
  std::mt19937 rng(20240611);
  int checked = 0, ambiguous = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    // Mostly small rows; some long ones, where top-p keeps more than the policy's first
    // sorted head of 64 tokens and must grow it.
    const int n =
        iter % 10 == 0 ? 500 + static_cast<int>(rng() % 2500) : 1 + static_cast<int>(rng() % 200);
    const std::vector<float> row = random_row(rng, n);
    const SamplingParams p = random_params(rng, n);
    Sampler sampler(p);
    const ReferenceKept kept = reference_kept(row, p);
    for (int k = 0; k < 8; ++k) {
      const uint64_t pos = rng() % 100000;
      const Token got = sampler.pick(row.data(), n, pos);
      bool draw_ambiguous = false;
      const Token want = reference_draw(kept, position_uniform(p.seed, pos), &draw_ambiguous);
      if (kept.ambiguous_cut || draw_ambiguous) {
        ++ambiguous;
        continue;
      }
      ++checked;
      ASSERT_EQ(got, want) << "n " << n << " T " << p.temperature << " top_k " << p.top_k
                           << " top_p " << p.top_p << " seed " << p.seed << " pos " << pos;
    }
  }
  std::printf("%d draws checked, %d left out (within rounding of a boundary)\n", checked,
              ambiguous);
  EXPECT_LT(ambiguous, checked / 100) << "too many draws left unchecked";
}

TEST(SamplingPropertyTest, DrawNeverLeavesTheKeptSet) {
  // Whatever the rounding at the cut, the token is one of the top-k and within the top-p
  // head that the reference keeps with one more token of slack.
  std::mt19937 rng(7);
  for (int iter = 0; iter < 2000; ++iter) {
    const int n = 1 + static_cast<int>(rng() % 300);
    const std::vector<float> row = random_row(rng, n);
    SamplingParams p = random_params(rng, n);
    if (p.temperature < 0.05f) p.temperature = 0.7f;
    Sampler sampler(p);
    const ReferenceKept kept = reference_kept(row, p);
    // Rank of each token in (logit desc, id asc) order.
    std::vector<Token> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](Token a, Token b) {
      const float la = row[static_cast<size_t>(a)], lb = row[static_cast<size_t>(b)];
      return la != lb ? la > lb : a < b;
    });
    std::vector<size_t> rank(static_cast<size_t>(n));
    for (size_t r = 0; r < order.size(); ++r) rank[static_cast<size_t>(order[r])] = r;
    const size_t max_rank = kept.tokens.size() + (kept.ambiguous_cut ? 1 : 0);
    for (uint64_t pos = 0; pos < 20; ++pos) {
      const Token t = sampler.pick(row.data(), n, pos);
      ASSERT_GE(t, 0);
      ASSERT_LT(t, n);
      if (p.top_k > 0) {
        EXPECT_LT(rank[static_cast<size_t>(t)], static_cast<size_t>(p.top_k));
      }
      EXPECT_LT(rank[static_cast<size_t>(t)], max_rank);
    }
  }
}

TEST(SamplingPropertyTest, EmpiricalFrequenciesFollowTheFilteredSoftmax) {
  // Over many positions the seeded draws follow the reference probabilities: the uniforms
  // are uniform and the draw is an inverse CDF of the right distribution.
  std::mt19937 rng(99);
  for (int iter = 0; iter < 20; ++iter) {
    const int n = 2 + static_cast<int>(rng() % 8);
    std::vector<float> row(static_cast<size_t>(n));
    for (float& l : row) l = std::normal_distribution<float>(0.0f, 1.0f)(rng);
    SamplingParams p;
    p.temperature = 0.5f + static_cast<float>(rng() % 100) / 100.0f;
    p.top_k = static_cast<int>(rng() % static_cast<unsigned>(n + 1));
    p.top_p = rng() % 2 ? 1.0f : 0.8f;
    p.seed = rng();
    const ReferenceKept kept = reference_kept(row, p);
    const double total = std::accumulate(kept.weights.begin(), kept.weights.end(), 0.0);
    Sampler sampler(p);
    const int draws = 20000;
    std::vector<int> count(static_cast<size_t>(n));
    for (int pos = 0; pos < draws; ++pos)
      count[static_cast<size_t>(sampler.pick(row.data(), n, static_cast<uint64_t>(pos)))]++;
    for (Token t = 0; t < n; ++t) {
      const auto it = std::find(kept.tokens.begin(), kept.tokens.end(), t);
      const double want = it == kept.tokens.end()
                              ? 0.0
                              : kept.weights[static_cast<size_t>(it - kept.tokens.begin())] / total;
      // 5 standard deviations of a binomial proportion, and exactly 0 where filtered out.
      const double sd = std::sqrt(want * (1 - want) / draws);
      EXPECT_NEAR(count[static_cast<size_t>(t)] / static_cast<double>(draws), want, 5 * sd + 1e-12)
          << "token " << t << " of " << n << ", iter " << iter;
    }
  }
}

TEST(SamplingPropertyTest, PositionUniformsAreUniformAndKeyedBySeedAndPosition) {
  constexpr int kBuckets = 16, kDraws = 64000;
  for (uint64_t seed : {0ull, 1ull, 42ull, 0xffffffffffffffffull}) {
    std::vector<int> bucket(kBuckets);
    std::set<double> distinct;
    for (uint64_t pos = 0; pos < kDraws; ++pos) {
      const double u = position_uniform(seed, pos);
      ASSERT_GE(u, 0.0);
      ASSERT_LT(u, 1.0);
      bucket[static_cast<size_t>(u * kBuckets)]++;
      distinct.insert(u);
    }
    EXPECT_GT(distinct.size(), static_cast<size_t>(kDraws - 2));  // no short cycle
    const double expect = static_cast<double>(kDraws) / kBuckets;
    for (int b : bucket) EXPECT_NEAR(b, expect, 5 * std::sqrt(expect));
  }
  // Different seeds give different sequences at the same positions.
  int same = 0;
  for (uint64_t pos = 0; pos < 1000; ++pos)
    same += position_uniform(1, pos) == position_uniform(2, pos);
  EXPECT_EQ(same, 0);
}

TEST(SamplingPropertyTest, PickDependsOnlyOnRowSeedAndPosition) {
  // Coupling: the token at a position must not depend on which positions or rows the sampler
  // saw before (it keeps scratch buffers), so a speculative engine that asks for positions in
  // any order, for several rows, emits what AR decoding emits.
  std::mt19937 rng(3);
  for (int iter = 0; iter < 200; ++iter) {
    const int n = 1 + static_cast<int>(rng() % 400);
    const SamplingParams p = random_params(rng, n);
    std::vector<std::vector<float>> rows;
    for (int r = 0; r < 4; ++r) rows.push_back(random_row(rng, n));
    // In order, one fresh sampler per (row, position).
    std::vector<std::vector<Token>> want(rows.size());
    for (size_t r = 0; r < rows.size(); ++r)
      for (uint64_t pos = 0; pos < 16; ++pos)
        want[r].push_back(Sampler(p).pick(rows[r].data(), n, pos));
    // Shuffled, one sampler for everything.
    std::vector<std::pair<size_t, uint64_t>> asks;
    for (size_t r = 0; r < rows.size(); ++r)
      for (uint64_t pos = 0; pos < 16; ++pos) asks.push_back({r, pos});
    std::shuffle(asks.begin(), asks.end(), rng);
    Sampler shared(p);
    for (const auto& [r, pos] : asks)
      ASSERT_EQ(shared.pick(rows[r].data(), n, pos), want[r][static_cast<size_t>(pos)]);
  }
}

// The reference argmax: highest logit, lowest id among equals (NaN never wins a comparison).
Token reference_argmax(const std::vector<float>& row) {
  Token best = 0;
  for (Token t = 1; t < std::ssize(row); ++t)
    if (row[static_cast<size_t>(t)] > row[static_cast<size_t>(best)]) best = t;
  return best;
}

TEST(SamplingPropertyTest, GreedyAndDegenerateFiltersTakeTheLowestIdArgmax) {
  std::mt19937 rng(11);
  for (int iter = 0; iter < 1000; ++iter) {
    const int n = 1 + static_cast<int>(rng() % 300);
    std::vector<float> row = random_row(rng, n);
    const Token best = reference_argmax(row);
    EXPECT_EQ(argmax(row.data(), n), best);
    const uint64_t seed = rng();
    SamplingParams greedy;
    greedy.seed = seed;
    SamplingParams top1{0.9f, 1, 1.0f, seed};    // top-k = 1 leaves only the argmax
    SamplingParams top_p0{0.9f, 0, 0.0f, seed};  // top-p = 0 keeps the single best token
    for (uint64_t pos = 0; pos < 4; ++pos) {
      EXPECT_EQ(Sampler(greedy).pick(row.data(), n, pos), best);
      EXPECT_EQ(Sampler(top1).pick(row.data(), n, pos), best);
      EXPECT_EQ(Sampler(top_p0).pick(row.data(), n, pos), best);
    }
  }
}

TEST(SamplingPropertyTest, TopKTokensMatchesFullSort) {
  // The drafters' top-k: the k best (logit desc, id asc), best first.
  std::mt19937 rng(5);
  std::vector<std::pair<float, Token>> got;
  for (int iter = 0; iter < 2000; ++iter) {
    const int n = 1 + static_cast<int>(rng() % 300);
    const int k = 1 + static_cast<int>(rng() % static_cast<unsigned>(n));
    const std::vector<float> row = random_row(rng, n);
    std::vector<std::pair<float, Token>> want;
    for (Token t = 0; t < n; ++t) want.push_back({row[static_cast<size_t>(t)], t});
    std::sort(want.begin(), want.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    want.resize(static_cast<size_t>(k));
    top_k_tokens(row.data(), n, k, got);
    ASSERT_EQ(got, want) << "n " << n << " k " << k;
  }
}

// Rows with what the vectorized scans must treat exactly as the scalar rules do: NaN, both
// infinities, -0 beside +0, ties, and lengths that are not a multiple of the vector width.
// Rows a broken model could hand the sampler: every draw stays on a token that has weight
// (never a NaN one while a number is left, never one below the support), and nothing crashes.
TEST(SampledPickTest, SpecialRowsDrawOnlyTokensWithWeight) {
  const float nan = std::nanf("");
  for (const SamplingParams& p :
       {SamplingParams{0.8f, 0, 1.0f, 1}, SamplingParams{0.8f, 2, 1.0f, 1},
        SamplingParams{0.8f, 0, 0.9f, 1}}) {
    Sampler sampler(p);
    const std::vector<float> nan_first = {nan, 1.0f, 1.0f, -100.0f};
    const std::vector<float> all_nan = {nan, nan, nan};
    const std::vector<float> all_minus_inf = {-INFINITY, -INFINITY};
    const std::vector<float> plus_inf = {0.0f, INFINITY, 2.0f, INFINITY};
    for (std::uint64_t pos = 0; pos < 200; ++pos) {
      const Token a = sampler.pick(nan_first.data(), 4, pos);
      EXPECT_TRUE(a == 1 || a == 2) << a;
      EXPECT_EQ(sampler.pick(all_nan.data(), 3, pos), 0);  // the greedy rule's answer
      const Token b = sampler.pick(all_minus_inf.data(), 2, pos);
      EXPECT_TRUE(b == 0 || b == 1) << b;
      const Token c = sampler.pick(plus_inf.data(), 4, pos);
      EXPECT_TRUE(c == 1 || c == 3) << c;
    }
  }
}

TEST(SamplingPropertyTest, RowScansMatchTheScalarRulesOnSpecialValues) {
  std::mt19937 rng(23);
  const float specials[] = {NAN, INFINITY, -INFINITY, -0.0f, 0.0f, 1.0f, 1.0f};
  std::vector<std::pair<float, Token>> got, want;
  for (int iter = 0; iter < 3000; ++iter) {
    const int n = 1 + static_cast<int>(rng() % 70);
    std::vector<float> row = random_row(rng, n);
    const int spiked = static_cast<int>(rng() % 4);
    for (int s = 0; s < spiked; ++s)
      row[rng() % static_cast<unsigned>(n)] = specials[rng() % std::size(specials)];
    ASSERT_EQ(argmax(row.data(), n), reference_argmax(row)) << "iter " << iter;
    const int k = 1 + static_cast<int>(rng() % 5);
    want.assign(static_cast<size_t>(k), {-INFINITY, -1});
    for (Token v = 0; v < n; ++v) {
      const float x = row[static_cast<size_t>(v)];
      if (x <= want.back().first) continue;
      size_t j = want.size() - 1;
      while (j > 0 && x > want[j - 1].first) want[j] = want[j - 1], --j;
      want[j] = {x, v};
    }
    top_k_tokens(row.data(), n, k, got);
    ASSERT_EQ(got.size(), want.size());
    for (size_t j = 0; j < want.size(); ++j) {
      ASSERT_EQ(got[j].second, want[j].second) << "iter " << iter << " rank " << j;
      ASSERT_TRUE(got[j].first == want[j].first ||
                  (std::isnan(got[j].first) && std::isnan(want[j].first)));
    }
  }
}

}  // namespace
}  // namespace reader
