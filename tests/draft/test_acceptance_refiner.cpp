// The refiner of acceptance estimates (acceptance_refiner.h): its features against a naive
// count over the text, its boosted trees against rules a logistic model cannot draw and against a
// naive walk, the collector's verdicts against a naive judge, and the drafter weighing what it
// says.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>
#include <string_view>
#include <tuple>
#include <vector>

#include "reader/acceptance_refiner.h"
#include "reader/drafter.h"

namespace reader {
namespace {

// A random tree below `root` with random sources and estimates.
DraftTree random_tree(std::mt19937& rng, Token root, int vocab, std::vector<double>& q) {
  DraftTree tree(root, 24);
  const DraftSource sources[] = {DraftSource::kSpeculator, DraftSource::kWidening,
                                 DraftSource::kDeepening, DraftSource::kCopy};
  std::uniform_int_distribution<int> token(0, vocab - 1), source(0, 3);
  for (int tries = 0; tries < 40 && !tree.full(); ++tries) {
    std::uniform_int_distribution<int> parent(0, tree.size() - 1);
    tree.add(parent(rng), token(rng), sources[source(rng)]);
  }
  std::uniform_real_distribution<double> u(0.0, 1.0);
  q.assign(static_cast<size_t>(tree.size()), 1.0);
  for (int i = 1; i < tree.size(); ++i) q[static_cast<size_t>(i)] = u(rng);
  return tree;
}

// How often `text` continues `gram` at all, and with `token`.
std::pair<int, int> naive_continuations(const Tokens& text, const Tokens& gram, Token token) {
  int total = 0, hits = 0;
  for (size_t end = gram.size(); end < text.size(); ++end)
    if (std::equal(gram.begin(), gram.end(),
                   text.begin() + static_cast<std::ptrdiff_t>(end - gram.size()))) {
      ++total;
      hits += text[end] == token;
    }
  return {total, hits};
}

TEST(AcceptanceRefinerTest, FeaturesMatchNaiveCountsOnRandomTexts) {
  std::mt19937 rng(7);
  for (int round = 0; round < 60; ++round) {
    const int vocab = 3 + round % 6;
    std::uniform_int_distribution<int> token(0, vocab - 1);
    Tokens text(static_cast<size_t>(5 + round * 3));
    for (Token& t : text) t = token(rng);
    ShortTermTrie trie;
    trie.append(text);
    std::vector<double> q;
    const DraftTree tree = random_tree(rng, text.back(), vocab, q);
    TextPace pace;
    pace.add_step(round % 5);
    // Token classes: the token's id in the low bits, its parent's after.
    const TokenClassOf class_of = [](Token t) { return static_cast<std::uint8_t>(t % 64); };
    const auto features = refiner_features(tree, q, text, trie, pace, class_of);
    ASSERT_EQ(features.size(), static_cast<size_t>(tree.size()));
    for (int i = 1; i < tree.size(); ++i) {
      const RefinerFeatures& x = features[static_cast<size_t>(i)];
      const double lq = std::log(std::clamp(q[static_cast<size_t>(i)], 1e-4, 1 - 1e-4) /
                                 (1 - std::clamp(q[static_cast<size_t>(i)], 1e-4, 1 - 1e-4)));
      EXPECT_NEAR(x[0], lq, 1e-4);
      EXPECT_EQ(x[3], tree.depth(i));
      int siblings = 0, higher = 0, children = 0;
      for (int s = tree.first_child(tree.parent(i)); s >= 0; s = tree.next_sibling(s)) {
        ++siblings;
        higher += q[static_cast<size_t>(s)] > q[static_cast<size_t>(i)];
      }
      for (int c = tree.first_child(i); c >= 0; c = tree.next_sibling(c)) ++children;
      EXPECT_EQ(x[5], siblings);
      EXPECT_EQ(x[6], higher);
      EXPECT_EQ(x[8], children);
      EXPECT_EQ(x[9] + x[10] + x[11] + x[12], 1.f);
      // The n-grams end with the node's parent: the text, then the path down to it.
      Tokens before = text;
      const Tokens path = tree.path_to(tree.parent(i));
      before.insert(before.end(), path.begin(), path.end());
      for (size_t k = 1; k <= 4; ++k) {
        const Tokens gram(before.end() - static_cast<std::ptrdiff_t>(k), before.end());
        const auto [total, hits] = naive_continuations(text, gram, tree.token(i));
        const float* g = &x[13 + 4 * (k - 1)];
        EXPECT_NEAR(g[0], std::log1p(total), 1e-5) << "k " << k;
        EXPECT_NEAR(g[1], total ? static_cast<double>(hits) / total : -1.0, 1e-6) << "k " << k;
        EXPECT_NEAR(g[3], std::log1p(hits), 1e-5) << "k " << k;
        if (hits == 0) {
          EXPECT_EQ(g[2], 0.f);
        }
      }
      EXPECT_NEAR(x[29], 0.8 * 2.0 + 0.2 * (round % 5), 1e-6);
      EXPECT_NEAR(x[30], std::log1p(std::count(text.begin(), text.end(), tree.token(i))), 1e-5);
      EXPECT_NEAR(x[35], x[0] * x[29], 1e-4);
      const Token parent_token = tree.token(tree.parent(i));
      for (int k = 0; k < kTokenClasses; ++k) {
        EXPECT_EQ(x[static_cast<size_t>(37 + k)], static_cast<float>((tree.token(i) >> k) & 1));
        EXPECT_EQ(x[static_cast<size_t>(43 + k)], static_cast<float>((parent_token >> k) & 1));
      }
    }
  }
}

TEST(AcceptanceRefinerTest, TokenClassesReadTheTokensText) {
  // {bytes, class bit, whether it is set}; bits: 0 a word's start, 1 its continuation,
  // 2 punctuation, 3 a sentence's end, 4 a newline, 5 a digit.
  const std::vector<std::tuple<std::string_view, int, bool>> cases = {
      {" the", 0, true},    {" the", 1, false}, {"ing", 1, true},  {"ing", 0, false},
      {",", 2, true},       {" (", 2, true},    {" a,", 2, false}, {".", 3, true},
      {" done. ", 3, true}, {".\n", 3, false},  {".\n", 4, true},  {" 42", 5, true}};
  for (const auto& [bytes, bit, set] : cases)
    EXPECT_EQ(((token_class(bytes) >> bit) & 1) != 0, set) << "'" << bytes << "' bit " << bit;
  EXPECT_EQ(token_class(""), 0);
  EXPECT_EQ(token_class(" "), 0);
}

// Samples whose verdicts follow a rule no logistic model of the features draws: accepted
// (mostly) where features 0 and 13 have the same sign, or where feature 40 (a class bit) is set.
bool rule(const RefinerFeatures& x) { return (x[0] > 0) == (x[13] > 0.5f) || x[40] > 0.5f; }
std::vector<RefinerSample> synthetic(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<RefinerSample> out(static_cast<size_t>(n));
  for (RefinerSample& s : out) {
    for (float& v : s.x) v = static_cast<float>(normal(rng));
    s.x[20] = 7.f;  // a constant feature must not break the fit
    s.x[40] = u(rng) < 0.2 ? 1.f : 0.f;
    s.accepted = u(rng) < (rule(s.x) ? 0.9 : 0.1);
  }
  return out;
}

// The leaf a naive walk of the tree reaches, by its definition in acceptance_refiner.h.
double naive_margin(const AcceptanceRefiner& r, const RefinerFeatures& x) {
  double z = r.base;
  for (const RefinerTree& t : r.trees) {
    size_t i = 0;
    while (i < t.feature.size()) {
      const bool left = t.feature[i] < 0 || x[static_cast<size_t>(t.feature[i])] < t.threshold[i];
      i = left ? 2 * i + 1 : 2 * i + 2;
    }
    z += t.leaf[i - t.feature.size()];
  }
  return z;
}

TEST(AcceptanceRefinerTest, TreesLearnWhatNoLogisticModelCan) {
  const auto samples = synthetic(20000, 3);
  const AcceptanceRefiner r = fit_refiner(samples);
  r.validate();
  EXPECT_EQ(r.samples, 20000);
  EXPECT_EQ(r.trees.size(), 150u);
  EXPECT_LT(r.refined_log_loss, 0.4);  // the rule's own: 0.325; a constant's 0.69
  EXPECT_GT(r.base_log_loss, 0.6);     // feature 0 alone, taken as the estimate's logit
  int right = 0;
  for (const RefinerSample& s : synthetic(2000, 5)) {
    const double q = r.refine(s.x);
    right += (q > 0.5) == rule(s.x);
    ASSERT_NEAR(q, 1 / (1 + std::exp(-naive_margin(r, s.x))), 1e-9);
  }
  EXPECT_GT(right, 1900);
  // Deterministic: the same samples grow the same trees.
  const AcceptanceRefiner again = fit_refiner(samples);
  ASSERT_EQ(again.trees.size(), r.trees.size());
  for (size_t t = 0; t < r.trees.size(); ++t) {
    EXPECT_EQ(again.trees[t].feature, r.trees[t].feature);
    EXPECT_EQ(again.trees[t].threshold, r.trees[t].threshold);
    EXPECT_EQ(again.trees[t].leaf, r.trees[t].leaf);
  }
}

TEST(AcceptanceRefinerTest, RefusesTooFewOrOneSidedSamples) {
  EXPECT_THROW(fit_refiner(synthetic(50, 1)), std::invalid_argument);
  auto one_sided = synthetic(500, 2);
  for (RefinerSample& s : one_sided) s.accepted = true;
  EXPECT_THROW(fit_refiner(one_sided), std::invalid_argument);
  AcceptanceRefiner bad = fit_refiner(synthetic(500, 5), {.trees = 3});
  bad.validate();
  bad.trees[1].feature[2] = kRefinerFeatures;
  EXPECT_THROW(bad.validate(), std::invalid_argument);
  bad.trees[1].feature[2] = -1;
  bad.validate();
  bad.trees[2].leaf[0] = std::nanf("");
  EXPECT_THROW(bad.validate(), std::invalid_argument);
}

TEST(AcceptanceRefinerTest, CollectorJudgesEveryCandidateWhoseParentTheTextFollowed) {
  std::mt19937 rng(11);
  for (int round = 0; round < 40; ++round) {
    const int vocab = 2 + round % 3;
    std::uniform_int_distribution<int> token(0, vocab - 1);
    Tokens prompt(6), output(static_cast<size_t>(round % 9));
    for (Token& t : prompt) t = token(rng);
    for (Token& t : output) t = token(rng);
    Tokens text = prompt;
    text.insert(text.end(), output.begin(), output.end());
    const int root =
        static_cast<int>(prompt.size()) - 1 + round % (1 + static_cast<int>(output.size()));
    std::vector<double> q;
    const DraftTree tree = random_tree(rng, text[static_cast<size_t>(root)], vocab, q);
    std::vector<RefinerFeatures> features(static_cast<size_t>(tree.size()));
    for (int i = 0; i < tree.size(); ++i)
      features[static_cast<size_t>(i)][0] = static_cast<float>(i);
    RefinerCollector collector;
    collector.step(root, tree, features);
    collector.finish(prompt, output);
    // Naive: a node is judged when its parent's whole path is the text; accepted when its own is.
    std::vector<std::pair<int, bool>> expected;
    for (int i = 1; i < tree.size(); ++i) {
      const auto follows = [&](int node) {
        const Tokens path = tree.path_to(node);
        for (size_t d = 0; d < path.size(); ++d) {
          const size_t at = static_cast<size_t>(root) + 1 + d;
          if (at >= text.size() || text[at] != path[d]) return false;
        }
        return true;
      };
      if (follows(tree.parent(i))) expected.push_back({i, follows(i)});
    }
    ASSERT_EQ(collector.samples().size(), expected.size());
    for (size_t k = 0; k < expected.size(); ++k) {
      EXPECT_EQ(collector.samples()[k].x[0], static_cast<float>(expected[k].first));
      EXPECT_EQ(collector.samples()[k].accepted, expected[k].second);
    }
    collector.step(root, tree, features);
    collector.discard();  // a text that never finished is never judged
    collector.finish(prompt, output);
    EXPECT_EQ(collector.samples().size(), expected.size());
  }
}

// A refiner without trees says sigmoid(bias) for every node.
AcceptanceRefiner constant_refiner(double bias) {
  AcceptanceRefiner r;
  r.base = bias;
  r.samples = 1;
  return r;
}

TEST(AcceptanceRefinerTest, TheDrafterWeighsWhatTheRefinerSays) {
  TreeShape shape;
  shape.speculator.clear();
  shape.d_search = 4;
  shape.d_deep = 0;
  shape.d_copy = 4;
  const Tokens prompt = {1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 2, 3};
  const auto drafted = [&](std::optional<double> bias) {
    DraftPolicy policy;
    if (bias) policy.refiner = constant_refiner(*bias);
    ReaderDrafter d(shape, nullptr, nullptr, true, std::move(policy));
    d.begin(prompt);
    return d.draft(prompt, 1 << 10).size() - 1;
  };
  EXPECT_EQ(drafted(-10.0), 0);  // nothing is worth verifying
  EXPECT_EQ(drafted(10.0), 4);   // the whole repeat is
  // Under sampling, a greedy refiner is not used: the estimates stand as they are.
  DraftPolicy policy;
  policy.refiner = constant_refiner(-10.0);
  ReaderDrafter d(shape, nullptr, nullptr, true, std::move(policy));
  d.set_sampling(true);
  d.begin(prompt);
  EXPECT_EQ(d.draft(prompt, 1 << 10).size() - 1, static_cast<int>(drafted(std::nullopt)));
}

}  // namespace
}  // namespace reader
