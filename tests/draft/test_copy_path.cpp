// ReaderDrafter's copy path (context_copy.h) on small token sequences, without a model: it
// follows the latest repeat where the trie follows the most frequent continuation, shares the
// nodes both draft, and is absent from shapes that predate it.
#include <gtest/gtest.h>

#include <algorithm>

#include "reader/drafter.h"

namespace reader {
namespace {

TreeShape shape(int d_copy) {
  TreeShape s;
  s.speculator.clear();
  s.d_search = 4;
  s.d_deep = 0;
  s.d_copy = d_copy;
  s.adaptive = false;  // the whole candidate tree comes back
  return s;
}

// Children of the root: (token, source).
std::vector<std::pair<Token, DraftSource>> root_children(const DraftTree& t) {
  std::vector<std::pair<Token, DraftSource>> out;
  for (int c = t.first_child(0); c >= 0; c = t.next_sibling(c))
    out.push_back({t.token(c), t.source(c)});
  return out;
}

TEST(CopyPathTest, FollowsTheLatestRepeatWhereTheTrieFollowsTheMostFrequent) {
  // After "1 2 3" came 7 twice, then 8 last: the trie drafts 7, the copy 8 and what followed.
  const Tokens prompt = {1, 2, 3, 7, 5, 1, 2, 3, 7, 6, 1, 2, 3, 8, 9, 4, 1, 2, 3};
  ReaderDrafter d(shape(3), nullptr, nullptr, true, DraftPolicy{});
  d.begin(prompt);
  const DraftTree t = d.draft(prompt, 1 << 10);
  const auto kids = root_children(t);
  ASSERT_EQ(kids.size(), 2u);
  EXPECT_EQ(kids[0], std::make_pair(Token{7}, DraftSource::kWidening));
  EXPECT_EQ(kids[1], std::make_pair(Token{8}, DraftSource::kCopy));
  const int copy = t.next_sibling(t.first_child(0));
  EXPECT_EQ(t.path_to(t.first_child(t.first_child(copy))), (Tokens{8, 9, 4}));
}

TEST(CopyPathTest, SharesWhatTheTrieAlsoDraftsAndIsOffInOlderShapes) {
  const Tokens prompt = {1, 2, 3, 7, 5, 6, 1, 2, 3};
  ReaderDrafter with(shape(4), nullptr, nullptr, true, DraftPolicy{});
  with.begin(prompt);
  const DraftTree a = with.draft(prompt, 1 << 10);
  ReaderDrafter without(shape(0), nullptr, nullptr, true, DraftPolicy{});
  without.begin(prompt);
  const DraftTree b = without.draft(prompt, 1 << 10);
  // One occurrence: both follow it, so the copy adds nothing the trie did not.
  EXPECT_EQ(a.size(), b.size());
  for (int i = 0; i < a.size(); ++i) EXPECT_NE(a.source(i), DraftSource::kCopy);
  EXPECT_EQ(parse_tree_shape(R"({"d_search": 8})", "t").d_copy, 0);
  EXPECT_EQ(parse_tree_shape(tree_shape_to_json(shape(5)), "t").d_copy, 5);
  EXPECT_THROW(parse_tree_shape(R"({"d_copy": 129})", "t").validate(8), std::invalid_argument);
}

TEST(CopyPathTest, ItsOwnNodesAreWeighedAndKept) {
  // Alone (no widening), after a 10-token repeat: the copy's nodes carry estimates of their
  // own kind, so Theorem 1 keeps some of them; without proposals they would weigh 0.
  Tokens prompt;
  for (Token t = 1; t <= 10; ++t) prompt.push_back(t);
  prompt.push_back(50);
  for (Token t = 1; t <= 10; ++t) prompt.push_back(t);
  prompt.push_back(60);
  for (Token t = 1; t <= 10; ++t) prompt.push_back(t);
  TreeShape s = shape(4);
  s.d_search = 0;
  s.adaptive = true;
  ReaderDrafter d(s, nullptr, nullptr, true, DraftPolicy{});
  d.begin(prompt);
  const DraftTree t = d.draft(prompt, 1 << 10);
  ASSERT_GE(t.size(), 2);
  EXPECT_EQ(t.token(1), 60);
  for (int i = 1; i < t.size(); ++i) EXPECT_EQ(t.source(i), DraftSource::kCopy);
}

}  // namespace
}  // namespace reader
