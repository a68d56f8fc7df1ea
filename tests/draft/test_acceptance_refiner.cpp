// The refiner of acceptance estimates (acceptance_refiner.h): its features against a naive
// count over the text, its logistic fit against known weights, the collector's verdicts against
// a naive judge, and the drafter weighing what it says.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>

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
    const auto features = refiner_features(tree, q, text, trie, pace);
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
    }
  }
}

// Samples whose verdicts follow a known logistic model of two features.
std::vector<RefinerSample> synthetic(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<RefinerSample> out(static_cast<size_t>(n));
  for (RefinerSample& s : out) {
    for (float& v : s.x) v = static_cast<float>(normal(rng));
    s.x[20] = 7.f;  // a constant feature must not break the fit
    const double z = 0.5 + 1.5 * s.x[0] - 1.0 * s.x[13];
    s.accepted = u(rng) < 1 / (1 + std::exp(-z));
  }
  return out;
}

TEST(AcceptanceRefinerTest, FitRecoversAKnownLogisticModel) {
  const auto samples = synthetic(20000, 3);
  const AcceptanceRefiner r = fit_refiner(samples, 1.0);
  r.validate();
  EXPECT_EQ(r.samples, 20000);
  // The held-out log loss of the truth's own feature alone is worse than the fit's.
  EXPECT_LT(r.refined_log_loss, r.base_log_loss);
  // Standard normal features: the standardized weights are close to the true ones.
  EXPECT_NEAR(r.weights[0], 1.5, 0.1);
  EXPECT_NEAR(r.weights[13], -1.0, 0.1);
  EXPECT_NEAR(r.weights[20], 0.0, 1e-6);  // constant: no evidence, no weight
  double error = 0;
  for (const RefinerSample& s : synthetic(2000, 4)) {
    const double truth = 1 / (1 + std::exp(-(0.5 + 1.5 * s.x[0] - 1.0 * s.x[13])));
    error += std::abs(r.refine(s.x) - truth) / 2000;
  }
  EXPECT_LT(error, 0.03);
}

TEST(AcceptanceRefinerTest, RefusesTooFewOrOneSidedSamples) {
  EXPECT_THROW(fit_refiner(synthetic(50, 1)), std::invalid_argument);
  auto one_sided = synthetic(500, 2);
  for (RefinerSample& s : one_sided) s.accepted = true;
  EXPECT_THROW(fit_refiner(one_sided), std::invalid_argument);
  AcceptanceRefiner bad = fit_refiner(synthetic(500, 5));
  bad.scale[3] = 0;
  EXPECT_THROW(bad.validate(), std::invalid_argument);
  bad.scale[3] = 1;
  bad.weights.pop_back();
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

// A refiner whose every weight is zero says sigmoid(bias) for every node.
AcceptanceRefiner constant_refiner(double bias) {
  AcceptanceRefiner r;
  r.mean.assign(kRefinerFeatures, 0.0);
  r.scale.assign(kRefinerFeatures, 1.0);
  r.weights.assign(kRefinerFeatures, 0.0);
  r.bias = bias;
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
