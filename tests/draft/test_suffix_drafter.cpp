// Method "suffix": the parents-array -> DraftTree conversion against a naive reference on
// random arrays, and the SuffixDrafter's two trees (prompt, earlier outputs) on small
// token sequences (skipped where the build has no ArcticInference sources).
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <set>
#include <stdexcept>

#include "reader/suffix_drafter.h"
#include "reader/verify.h"

namespace reader {
namespace {

// Entry i's tokens from just below the root, following the parents array.
Tokens entry_path(const Tokens& tokens, const std::vector<int>& parents, int i) {
  Tokens path;
  for (int e = i; e >= 0; e = parents[static_cast<size_t>(e)])
    path.insert(path.begin(), tokens[static_cast<size_t>(e)]);
  return path;
}

// Leaves of the trie of `paths` (paths not extended by another path).
int naive_leaves(const std::set<Tokens>& paths) {
  int leaves = 0;
  for (const Tokens& p : paths) {
    bool extended = false;
    for (const Tokens& q : paths)
      extended |= q.size() == p.size() + 1 && std::equal(p.begin(), p.end(), q.begin());
    leaves += !extended;
  }
  return leaves;
}

TEST(ParentsArrayTest, MatchesNaivePathSetOnRandomArrays) {
  std::mt19937 rng(7);
  for (int round = 0; round < 2000; ++round) {
    const int n = static_cast<int>(rng() % 14);
    const int alphabet = 1 + static_cast<int>(rng() % 3);  // small: duplicate siblings happen
    Tokens tokens;
    std::vector<int> parents;
    std::vector<float> scores;
    for (int i = 0; i < n; ++i) {
      tokens.push_back(static_cast<Token>(rng() % alphabet));
      parents.push_back(static_cast<int>(rng() % (i + 1)) - 1);  // -1 .. i-1
      scores.push_back(static_cast<float>(rng() % 100) / 100.0f);
    }
    const int budget = 1 + static_cast<int>(rng() % 12);
    const int max_leaves = 1 + static_cast<int>(rng() % 4);
    DraftTree tree(99, budget);
    const std::vector<int> node =
        add_parents_array(tree, 0, tokens, parents, scores, DraftSource::kSuffix, max_leaves);
    ASSERT_NO_THROW(tree.check_integrity());
    ASSERT_EQ(node.size(), tokens.size());

    // Reference: keep entries in order while the path set fits the budget and leaf limit.
    std::set<Tokens> kept_paths;
    for (int i = 0; i < n; ++i) {
      const int p = parents[static_cast<size_t>(i)];
      const Tokens path = entry_path(tokens, parents, i);
      bool keep = p < 0 || node[static_cast<size_t>(p)] >= 0;
      if (keep && !kept_paths.count(path)) {
        std::set<Tokens> with = kept_paths;
        with.insert(path);
        keep = static_cast<int>(with.size()) + 1 <= budget && naive_leaves(with) <= max_leaves;
        if (keep) kept_paths = with;
      }
      ASSERT_EQ(node[static_cast<size_t>(i)] >= 0, keep) << "round " << round << " entry " << i;
      if (keep) {
        const int t = node[static_cast<size_t>(i)];
        EXPECT_EQ(tree.path_to(t), path);
        EXPECT_EQ(tree.source(t), DraftSource::kSuffix);
      }
    }
    std::set<Tokens> tree_paths;
    for (int i = 1; i < tree.size(); ++i) tree_paths.insert(tree.path_to(i));
    EXPECT_EQ(tree_paths, kept_paths);
    EXPECT_LE(layout_tree(tree, 0, 1).branches, max_leaves);
  }
}

TEST(ParentsArrayTest, ChainBelowRootKeepsScores) {
  DraftTree tree(5, 16);
  const Tokens tokens = {7, 8, 9};
  const std::vector<int> parents = {-1, 0, 1};
  const std::vector<float> probs = {1.0f, 0.5f, 0.25f};
  const auto node = add_parents_array(tree, 0, tokens, parents, probs, DraftSource::kSuffix, 1);
  EXPECT_EQ(node, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(tree.path_to(3), tokens);
  EXPECT_FLOAT_EQ(tree.score(2), 0.5f);
}

TEST(ParentsArrayTest, RejectsMalformedArrays) {
  DraftTree tree(5, 16);
  const Tokens tokens = {7, 8};
  EXPECT_THROW(
      add_parents_array(tree, 0, tokens, std::vector<int>{-1, 1}, {}, DraftSource::kSuffix, 4),
      std::invalid_argument);  // parent not earlier
  EXPECT_THROW(
      add_parents_array(tree, 0, tokens, std::vector<int>{-1}, {}, DraftSource::kSuffix, 4),
      std::invalid_argument);  // lengths differ
}

class SuffixDrafterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!suffix_decoding_available()) GTEST_SKIP() << "no SuffixDecoding sources in this build";
  }
};

Tokens iota_tokens(Token from, int n) {
  Tokens t(static_cast<size_t>(n));
  std::iota(t.begin(), t.end(), from);
  return t;
}

// The drafted chain below the root.
Tokens drafted_chain(const DraftTree& tree) {
  Tokens chain;
  for (int n = tree.first_child(0); n >= 0; n = tree.first_child(n)) {
    EXPECT_EQ(tree.source(n), DraftSource::kSuffix);
    chain.push_back(tree.token(n));
  }
  EXPECT_EQ(static_cast<int>(chain.size()), tree.size() - 1);  // a chain, no side branches
  return chain;
}

TEST_F(SuffixDrafterTest, CopiesFromThePrompt) {
  auto drafter = make_suffix_drafter(SuffixParams{}, 63);
  // A passage 1..30, other text, then the passage's start again: the draft continues it.
  Tokens prompt = iota_tokens(1, 30);
  for (Token t : {500, 501, 502}) prompt.push_back(t);
  const Tokens again = iota_tokens(1, 8);
  prompt.insert(prompt.end(), again.begin(), again.end());
  drafter->begin(prompt);
  // match length 8 and max_spec_factor 1: at most 8 tokens
  EXPECT_EQ(drafted_chain(drafter->draft(prompt, 64)), iota_tokens(9, 8));
  // The budget caps the draft (3 nodes = root + 2).
  EXPECT_EQ(drafted_chain(drafter->draft(prompt, 3)), iota_tokens(9, 2));
  // Committed tokens extend the prompt's tree: the match grows, and so does the draft.
  Tokens context = prompt;
  const Tokens next = iota_tokens(9, 4);
  drafter->commit(next);
  context.insert(context.end(), next.begin(), next.end());
  EXPECT_EQ(drafted_chain(drafter->draft(context, 64)), iota_tokens(13, 12));
  // Nothing to match: nothing drafted.
  const Tokens unseen = {900, 901};
  EXPECT_EQ(drafter->draft(unseen, 64).size(), 1);
}

TEST_F(SuffixDrafterTest, RemembersEarlierOutputs) {
  auto drafter = make_suffix_drafter(SuffixParams{}, 63);
  const Tokens prompt1 = {1000, 1001, 1002};
  const Tokens output1 = iota_tokens(200, 20);
  drafter->begin(prompt1);
  for (Token t : output1) drafter->commit({&t, 1});
  drafter->finish(prompt1, output1);

  // A new prompt that shares nothing with output1 except its first tokens at the end.
  Tokens prompt2 = {3000, 3001};
  for (Token t : iota_tokens(200, 5)) prompt2.push_back(t);
  drafter->begin(prompt2);
  EXPECT_EQ(drafted_chain(drafter->draft(prompt2, 64)), iota_tokens(205, 5));

  // Without a global tree the same prompt drafts nothing.
  SuffixParams no_global;
  no_global.max_cached_outputs = 0;
  auto local_only = make_suffix_drafter(no_global, 63);
  local_only->begin(prompt1);
  for (Token t : output1) local_only->commit({&t, 1});
  local_only->finish(prompt1, output1);
  local_only->begin(prompt2);
  EXPECT_EQ(local_only->draft(prompt2, 64).size(), 1);
}

TEST_F(SuffixDrafterTest, EvictsOldestOutputFirst) {
  SuffixParams p;
  p.max_cached_outputs = 2;  // the running generation takes a slot too, as in ArcticInference
  auto drafter = make_suffix_drafter(p, 63);
  for (Token base : {200, 400}) {  // two outputs; the third begin() evicts the first
    const Tokens prompt = {1000};
    const Tokens out = iota_tokens(base, 10);
    drafter->begin(prompt);
    drafter->commit(out);
    drafter->finish(prompt, out);
  }
  const Tokens ctx_old = {7000, 200, 201, 202}, ctx_new = {7000, 400, 401, 402};
  drafter->begin(Tokens{7000});
  EXPECT_EQ(drafter->draft(ctx_old, 64).size(), 1);
  EXPECT_EQ(drafted_chain(drafter->draft(ctx_new, 64)), iota_tokens(403, 3));
}

bool occurs_in(const Tokens& needle, const Tokens& hay) {
  return std::search(hay.begin(), hay.end(), needle.begin(), needle.end()) != hay.end();
}

// Whatever it drafts was seen: the context's last |d| tokens followed by the draft d occur in
// the prompt + output so far, or in one output (earlier or current); |d| respects every cap.
TEST_F(SuffixDrafterTest, DraftsOnlyContinuationsItHasSeen) {
  std::mt19937 rng(11);
  SuffixParams params;
  params.max_spec_tokens = 6;
  auto drafter = make_suffix_drafter(params, 63);
  std::vector<Tokens> outputs;  // every output so far, the current one last
  int nonempty = 0;
  for (int gen = 0; gen < 40; ++gen) {
    Tokens context;
    for (int i = 0, n = 5 + static_cast<int>(rng() % 30); i < n; ++i)
      context.push_back(static_cast<Token>(rng() % 4));
    const Tokens prompt = context;
    drafter->begin(prompt);
    outputs.emplace_back();
    while (outputs.back().size() < 30) {
      const int budget = 1 + static_cast<int>(rng() % 10);
      const DraftTree tree = drafter->draft(context, budget);
      ASSERT_NO_THROW(tree.check_integrity());
      const Tokens d = drafted_chain(tree);
      EXPECT_LE(static_cast<int>(d.size()), std::min(params.max_spec_tokens, budget - 1));
      EXPECT_LT(d.size(), context.size());  // max_spec_factor 1: |d| <= match length
      if (!d.empty()) {
        ++nonempty;
        Tokens seen(context.end() - static_cast<std::ptrdiff_t>(d.size()), context.end());
        seen.insert(seen.end(), d.begin(), d.end());
        bool found = occurs_in(seen, context);
        for (const Tokens& out : outputs) found |= occurs_in(seen, out);
        EXPECT_TRUE(found) << "generation " << gen;
      }
      // Commit part of the draft and one token of "the model's" own, as a step does.
      Tokens step(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(rng() % (d.size() + 1)));
      step.push_back(static_cast<Token>(rng() % 4));
      drafter->commit(step);
      context.insert(context.end(), step.begin(), step.end());
      outputs.back().insert(outputs.back().end(), step.begin(), step.end());
    }
    drafter->finish(prompt, outputs.back());
  }
  EXPECT_GT(nonempty, 100);  // the property was exercised
}

TEST(SuffixDrafterParamsTest, BadParamsOrUnavailableThrowClearly) {
  SuffixParams bad;
  bad.min_token_prob = 2.0f;
  try {
    make_suffix_drafter(bad, 63);
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(suffix_decoding_available() ? "min_token_prob" : "scripts/setup.sh"),
              std::string::npos)
        << what;
  }
}

}  // namespace
}  // namespace reader
