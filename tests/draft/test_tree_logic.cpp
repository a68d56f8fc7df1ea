// Draft trees, the tree policy (Theorem 1), the batch layout and the acceptance rule,
// checked against brute-force references on random trees.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>

#include "reader/draft_trace.h"
#include "reader/drafter.h"
#include "reader/sampling.h"
#include "reader/tree_policy.h"
#include "reader/verify.h"

namespace reader {
namespace {

DraftTree random_tree(std::mt19937& rng, int max_nodes, int alphabet) {
  DraftTree t(static_cast<Token>(rng() % alphabet), max_nodes);
  const int tries = static_cast<int>(rng() % (static_cast<std::uint64_t>(max_nodes) * 2));
  for (int k = 0; k < tries; ++k) {
    const int parent = static_cast<int>(rng() % t.size());
    t.add(parent, static_cast<Token>(rng() % alphabet), DraftSource::kSpeculator);
  }
  return t;
}

bool is_ancestor_or_self(const DraftTree& t, int a, int b) {
  for (int n = b; n >= 0; n = t.parent(n))
    if (n == a) return true;
  return false;
}

TEST(DraftTreeTest, RandomTreesKeepInvariants) {
  std::mt19937 rng(1);
  for (int round = 0; round < 500; ++round) {
    const int budget = 1 + static_cast<int>(rng() % 20);
    DraftTree t = random_tree(rng, budget, 1 + static_cast<int>(rng() % 5));
    ASSERT_NO_THROW(t.check_integrity());
    EXPECT_LE(t.size(), budget);
    for (int i = 1; i < t.size(); ++i) {  // adding an existing child returns it, adds nothing
      const int before = t.size();
      EXPECT_EQ(t.add(t.parent(i), t.token(i), DraftSource::kWidening), i);
      EXPECT_EQ(t.size(), before);
      EXPECT_EQ(static_cast<int>(t.path_to(i).size()), t.depth(i));
    }
  }
}

TEST(DraftTraceTest, OneJsonObjectPerLineWithTheTreeAsParents) {
  std::ostringstream out;
  DraftTrace trace(out);
  DraftTree tree(7, 8);
  tree.add(0, 11, DraftSource::kWidening);
  tree.add(1, 12, DraftSource::kWidening);
  tree.add(0, 13, DraftSource::kSpeculator);
  trace.run("rag", "3", "reader");
  trace.prompt(Tokens{1, 2, 7});
  trace.step(3, tree, {1.0, 0.5, 0.25, 0.125}, CostCurve({{1, 1.0}, {2, 1.1}, {3, 1.2}, {4, 1.3}}),
             {0, 1});
  trace.commit(Tokens{11, 40});
  std::istringstream in(out.str());
  std::vector<nlohmann::json> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0]["run"]["set"], "rag");
  EXPECT_EQ(lines[0]["run"]["id"], "3");
  EXPECT_EQ(lines[1]["prompt"].get<Tokens>(), (Tokens{1, 2, 7}));
  const nlohmann::json& step = lines[2]["step"];
  EXPECT_EQ(step["context"], 3);
  EXPECT_EQ(step["parents"].get<std::vector<int>>(), (std::vector<int>{0, 1, 0}));
  EXPECT_EQ(step["tokens"].get<Tokens>(), (Tokens{11, 12, 13}));
  EXPECT_EQ(step["sources"].get<std::vector<int>>(),
            (std::vector<int>{static_cast<int>(DraftSource::kWidening),
                              static_cast<int>(DraftSource::kWidening),
                              static_cast<int>(DraftSource::kSpeculator)}));
  EXPECT_EQ(step["q"].get<std::vector<double>>(), (std::vector<double>{0.5, 0.25, 0.125}));
  EXPECT_EQ(step["cost"].size(), 4u);
  EXPECT_EQ(step["keep"].get<std::vector<int>>(), (std::vector<int>{0, 1}));
  EXPECT_EQ(lines[3]["commit"].get<Tokens>(), (Tokens{11, 40}));
}

TEST(TreeLayoutTest, EachNodeSeesExactlyItsAncestors) {
  std::mt19937 rng(2);
  for (int round = 0; round < 300; ++round) {
    const DraftTree t = random_tree(rng, 1 + static_cast<int>(rng() % 24), 4);
    const TreeLayout layout = layout_tree(t, 0, 1);
    EXPECT_EQ(layout.branches, is_chain(t) ? 0 : static_cast<int>(t.leaves().size()));
    EXPECT_EQ(layout.seq_ids[0][0], 0);
    for (int j = 0; j < t.size(); ++j) {
      const int query_id = layout.seq_ids[static_cast<size_t>(j)][0];
      for (int i = 0; i < t.size(); ++i) {
        const auto& ids = layout.seq_ids[static_cast<size_t>(i)];
        const bool visible =
            std::find(ids.begin(), ids.end(), query_id) != ids.end() && t.depth(i) <= t.depth(j);
        EXPECT_EQ(visible, is_ancestor_or_self(t, i, j)) << "node " << i << " vs query " << j;
      }
    }
  }
}

TEST(AcceptanceTest, LongestPathMatchesNaiveWalk) {
  std::mt19937 rng(3);
  for (int round = 0; round < 500; ++round) {
    const DraftTree t = random_tree(rng, 2 + static_cast<int>(rng() % 16), 3);
    std::vector<Token> policy(
        static_cast<size_t>(t.size()));  // token the policy emits after each node
    for (auto& p : policy) p = static_cast<Token>(rng() % 3);
    const Acceptance a =
        accept_longest_path(t, [&](int node) { return policy[static_cast<size_t>(node)]; });
    // Naive: from the root, look for a child holding the policy's token.
    std::vector<int> nodes = {0};
    for (;;) {
      int next = -1;
      for (int c = 1; c < t.size(); ++c)
        if (t.parent(c) == nodes.back() && t.token(c) == policy[static_cast<size_t>(nodes.back())])
          next = c;
      if (next < 0) break;
      nodes.push_back(next);
    }
    EXPECT_EQ(a.nodes, nodes);
    ASSERT_EQ(a.emitted.size(), nodes.size());
    for (size_t k = 0; k < nodes.size(); ++k)
      EXPECT_EQ(a.emitted[k], policy[static_cast<size_t>(nodes[k])]);
  }
}

TEST(TreePolicyTest, BestSubtreeMatchesBruteForce) {
  std::mt19937 rng(4);
  const CostCurve cost = fallback_cost_model().at(512);
  for (int round = 0; round < 300; ++round) {
    const DraftTree t = random_tree(rng, 2 + static_cast<int>(rng() % 9), 4);
    std::vector<double> q(static_cast<size_t>(t.size()), 1.0);
    for (int i = 1; i < t.size(); ++i)
      q[static_cast<size_t>(i)] = std::uniform_real_distribution<double>(0, 1)(rng);
    std::vector<double> alpha(q.size(), 1.0);
    for (int i = 1; i < t.size(); ++i)
      alpha[static_cast<size_t>(i)] =
          alpha[static_cast<size_t>(t.parent(i))] * q[static_cast<size_t>(i)];
    const auto value = [&](const std::vector<int>& keep) {
      double e = 0;
      for (int i : keep) e += alpha[static_cast<size_t>(i)];
      return e / cost(static_cast<int>(keep.size()));
    };
    // Brute force over every subset of non-root nodes that is closed under parents.
    double best = 0;
    const int n = t.size() - 1;
    for (int mask = 0; mask < (1 << n); ++mask) {
      std::vector<int> keep = {0};
      bool closed = true;
      for (int i = 1; i <= n; ++i)
        if (mask >> (i - 1) & 1) {
          const int p = t.parent(i);
          if (p > 0 && !(mask >> (p - 1) & 1)) closed = false;
          keep.push_back(i);
        }
      if (closed) best = std::max(best, value(keep));
    }
    const std::vector<int> got = best_subtree(t, q, cost);
    EXPECT_NEAR(value(got), best, 1e-9);
    const DraftTree r = restrict_tree(t, got);
    EXPECT_NO_THROW(r.check_integrity());
    EXPECT_EQ(r.size(), static_cast<int>(got.size()));
  }
}

TEST(TreePolicyTest, BestPathMatchesBruteForce) {
  std::mt19937 rng(6);
  const CostCurve cost = fallback_cost_model().at(512);
  for (int round = 0; round < 300; ++round) {
    const DraftTree t = random_tree(rng, 2 + static_cast<int>(rng() % 12), 4);
    std::vector<double> q(static_cast<size_t>(t.size()), 1.0);
    for (int i = 1; i < t.size(); ++i)
      q[static_cast<size_t>(i)] = std::uniform_real_distribution<double>(0, 1)(rng);
    // Naive: for every node, walk up to the root multiplying rates.
    const auto path_value = [&](int node) {
      std::vector<int> up;
      for (int i = node; i > 0; i = t.parent(i)) up.push_back(i);
      double alpha = 1, expected = 1;
      for (auto it = up.rbegin(); it != up.rend(); ++it) {
        alpha *= q[static_cast<size_t>(*it)];
        expected += alpha;
      }
      return expected / cost(static_cast<int>(up.size()) + 1);
    };
    double best = 0;
    for (int i = 0; i < t.size(); ++i) best = std::max(best, path_value(i));
    const std::vector<int> got = best_path(t, q, cost);
    ASSERT_FALSE(got.empty());
    EXPECT_EQ(got.front(), 0);
    for (size_t k = 1; k < got.size(); ++k) EXPECT_EQ(t.parent(got[k]), got[k - 1]);
    EXPECT_NEAR(path_value(got.back()), best, 1e-9);
    EXPECT_NO_THROW(restrict_tree(t, got).check_integrity());
  }
}

TEST(SamplingTest, PolicyIsDeterministicAndCoupled) {
  std::mt19937 rng(5);
  std::vector<float> logits(1000);
  for (auto& l : logits) l = std::normal_distribution<float>(0, 2)(rng);
  logits[17] = logits[18] = 100;  // a tie: greedy takes the lower id
  EXPECT_EQ(argmax(logits.data(), 1000), 17);
  Sampler greedy({});
  EXPECT_EQ(greedy.pick(logits.data(), 1000, 3), 17);
  logits[17] = logits[18] = 0;
  // Coupling: a position's token depends on (row, seed, position) only, not on the draws
  // before it, so a sampler asked forwards and one asked backwards agree ...
  for (uint64_t seed : {1u, 2u, 3u}) {
    Sampler a({0.8f, 40, 0.95f, seed}), b({0.8f, 40, 0.95f, seed});
    std::vector<Token> forward;
    for (uint64_t pos = 0; pos < 50; ++pos) forward.push_back(a.pick(logits.data(), 1000, pos));
    for (uint64_t pos = 50; pos-- > 0;)
      EXPECT_EQ(b.pick(logits.data(), 1000, pos), forward[static_cast<size_t>(pos)]);
    // ... and the draws vary with the position (a constant policy would pass the above).
    EXPECT_GT(std::set<Token>(forward.begin(), forward.end()).size(), 5u);
  }
  Sampler top1({1.0f, 1, 1.0f, 9});
  EXPECT_EQ(top1.pick(logits.data(), 1000, 0), argmax(logits.data(), 1000));
  // The empirical distribution of plain temperature sampling follows the softmax.
  std::vector<float> two = {0.0f, std::log(3.0f)};  // p = 1/4, 3/4
  Sampler t1({1.0f, 0, 1.0f, 11});
  int ones = 0;
  for (uint64_t pos = 0; pos < 20000; ++pos) ones += t1.pick(two.data(), 2, pos) == 1;
  EXPECT_NEAR(ones / 20000.0, 0.75, 0.015);
}

// Token Recycling scores each node by how sure the model was, when it last saw the parent
// token, that this successor follows: a softmax over its top candidates, multiplied down
// the path. The drafter buckets that confidence into the node's kind.
TEST(RecyclingTest, ScoresAreTheModelsRecordedConfidenceAlongThePath) {
  const int n_vocab = 6;
  auto spec = make_recycling_speculator(n_vocab, {{-1, 0}, {0, 0}});
  // Rows: after token 1 the model was sure of 2; after 2, torn between 3 and 4.
  std::vector<std::vector<float>> rows(n_vocab, std::vector<float>(n_vocab, -30.0f));
  rows[1][2] = 10.0f;
  rows[2][3] = 1.0f;
  rows[2][4] = 1.0f;
  DraftTree seen(1, 3);
  seen.add(0, 2, DraftSource::kSpeculator);
  spec->observe(seen, [&](int node) { return rows[static_cast<size_t>(seen.token(node))].data(); });

  DraftTree tree(1, 3);
  const Tokens context = {1};
  spec->draft(context, tree);
  ASSERT_EQ(tree.size(), 3);
  EXPECT_EQ(tree.token(1), 2);
  EXPECT_EQ(tree.token(2), 3);  // a tie: the lower id first
  EXPECT_NEAR(tree.score(1), 1.0, 1e-6);
  EXPECT_NEAR(tree.score(2), 0.5, 1e-6);  // 1.0 * 0.5

  // Unseen tokens have no successors: nothing is drafted.
  DraftTree cold(5, 3);
  spec->draft(Tokens{5}, cold);
  EXPECT_EQ(cold.size(), 1);
}

// With context rows, a token's successors come from the last time it followed the same
// tokens: "5" after "1" and "5" after "2" keep their own successors, and a context never seen
// falls back to the token's latest row. With one context token (the paper's table) the latest
// row answers every time.
TEST(RecyclingTest, ContextRowsKeepEachContextsSuccessor) {
  const int n_vocab = 10;
  std::vector<float> row(n_vocab);
  auto observe_after = [&](Speculator& spec, Token before, Token t, Token next) {
    DraftTree seen(before, 2);
    seen.add(0, t, DraftSource::kSpeculator);
    std::fill(row.begin(), row.end(), 0.0f);
    row[static_cast<size_t>(next)] = 10.0f;
    spec.observe(seen, [&](int) { return row.data(); });
  };
  auto first_guess = [](Speculator& spec, const Tokens& context) {
    DraftTree tree(context.back(), 2);
    spec.draft(context, tree);
    return tree.size() > 1 ? tree.token(1) : -1;
  };
  auto with_context = make_recycling_speculator(n_vocab, {{-1, 0}}, 3);
  auto per_token = make_recycling_speculator(n_vocab, {{-1, 0}}, 1);
  for (Speculator* spec : {with_context.get(), per_token.get()}) {
    observe_after(*spec, 1, 5, 7);
    observe_after(*spec, 2, 5, 8);
  }
  EXPECT_EQ(first_guess(*with_context, {1, 5}), 7);
  EXPECT_EQ(first_guess(*with_context, {2, 5}), 8);
  EXPECT_EQ(first_guess(*with_context, {3, 5}), 8);  // unseen context: the latest row
  EXPECT_EQ(first_guess(*with_context, {5}), 8);
  EXPECT_EQ(first_guess(*per_token, {1, 5}), 8);

  // A tree verified without a draft of its root (a step that skipped the speculator) keys
  // nothing by the text before an older root: "9" after "1" keeps its successor.
  auto spec = make_recycling_speculator(n_vocab, {{-1, 0}}, 2);
  auto observe_root = [&](Token root, Token next) {
    DraftTree verified(root, 1);
    std::fill(row.begin(), row.end(), 0.0f);
    row[static_cast<size_t>(next)] = 10.0f;
    spec->observe(verified, [&](int) { return row.data(); });
  };
  EXPECT_EQ(first_guess(*spec, {1, 9}), -1);
  observe_root(9, 7);  // drafted from {1, 9}: "9" after "1" -> 7
  observe_root(9, 8);  // no draft: "9" -> 8 only
  EXPECT_EQ(first_guess(*spec, {1, 9}), 7);
  EXPECT_EQ(first_guess(*spec, {3, 9}), 8);
}

// Rows hold k successors each: a template with second guesses drafts a context row's rank 1
// too, and a speculator of another k sharing the table starts it afresh.
TEST(RecyclingTest, ContextRowsHoldEveryRank) {
  const int n_vocab = 10;
  RecyclingTable shared;
  auto spec = make_recycling_speculator(n_vocab, {{-1, 0}, {-1, 1}}, 3, &shared);
  std::vector<float> row(n_vocab, 0.0f);
  auto observe = [&](Token before, Token t, Token best, Token second) {
    DraftTree seen(before, 2);
    seen.add(0, t, DraftSource::kSpeculator);
    std::fill(row.begin(), row.end(), 0.0f);
    row[static_cast<size_t>(best)] = 10.0f;
    row[static_cast<size_t>(second)] = 9.0f;
    spec->observe(seen, [&](int) { return row.data(); });
  };
  observe(1, 5, 7, 6);
  observe(2, 5, 8, 3);
  DraftTree tree(5, 3);
  spec->draft(Tokens{1, 5}, tree);
  ASSERT_EQ(tree.size(), 3);
  EXPECT_EQ(tree.token(1), 7);
  EXPECT_EQ(tree.token(2), 6);
  EXPECT_EQ(shared.k, 2);
  auto narrower = make_recycling_speculator(n_vocab, {{-1, 0}}, 3, &shared);
  EXPECT_EQ(shared.k, 1);
  EXPECT_TRUE(shared.context_rows.empty());
}

// Against a reference that remembers every context's latest successor in a map: on random
// texts over a small vocabulary, every drafted node (two levels, so contexts run through the
// tree and into the text before the root) is the reference's answer for its longest known
// context of up to `context_tokens` tokens, or absent where the token was never seen.
TEST(RecyclingTest, ContextRowsMatchAReferenceOnRandomTexts) {
  std::mt19937 rng(29);
  const int n_vocab = 5;
  for (int context_tokens = 1; context_tokens <= 3; ++context_tokens) {
    auto spec = make_recycling_speculator(n_vocab, {{-1, 0}, {0, 0}}, context_tokens);
    std::map<Tokens, Token> seen;  // context (oldest first, the token last) -> latest successor
    auto expected = [&](const Tokens& text) {  // text ends with the node's token
      for (int n = std::min<int>(context_tokens, static_cast<int>(text.size())); n >= 1; --n)
        if (auto it = seen.find(Tokens(text.end() - n, text.end())); it != seen.end())
          return it->second;
      return Token{-1};
    };
    std::vector<float> row(n_vocab);
    for (int round = 0; round < 400; ++round) {
      Tokens context(1 + rng() % 4);
      for (Token& t : context) t = static_cast<Token>(rng() % n_vocab);
      DraftTree tree(context.back(), 3);
      spec->draft(context, tree);
      Tokens text = context;
      const Token first = expected(text);
      ASSERT_EQ(tree.size() > 1 ? tree.token(1) : -1, first) << "round " << round;
      if (first >= 0) {
        text.push_back(first);
        ASSERT_EQ(tree.size() > 2 ? tree.token(2) : -1, expected(text)) << "round " << round;
      }
      // The model's verdict on a random chain below the root: a random top-1 at each node.
      DraftTree verified(context.back(), 3);
      for (int d = 0; d < 2; ++d)
        verified.add(d, static_cast<Token>(rng() % n_vocab), DraftSource::kSpeculator);
      std::vector<Token> best(3);
      for (Token& b : best) b = static_cast<Token>(rng() % n_vocab);
      spec->observe(verified, [&](int node) {
        std::fill(row.begin(), row.end(), 0.0f);
        row[static_cast<size_t>(best[static_cast<size_t>(node)])] = 10.0f;
        return row.data();
      });
      Tokens path = context;
      for (int node = 0; node < verified.size(); ++node) {
        if (node > 0) path.push_back(verified.token(node));
        for (int n = 1; n <= std::min<int>(context_tokens, static_cast<int>(path.size())); ++n)
          seen[Tokens(path.end() - n, path.end())] = best[static_cast<size_t>(node)];
      }
    }
  }
}

}  // namespace
}  // namespace reader
