// ReaderDrafter's copy path (context_copy.h) on small token sequences, without a model: it
// follows the latest repeat where the trie follows the most frequent continuation, shares the
// nodes both draft, is absent from shapes that predate it, and seconds speculator guesses.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string_view>

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

// A speculator that always guesses `a` then `b` below the root.
class FixedGuesses : public Speculator {
 public:
  FixedGuesses(Token a, Token b) : a_(a), b_(b) {}
  std::string_view name() const override { return "fixed"; }
  void begin(TokenSpan) override {}
  void draft(TokenSpan, DraftTree& tree) override {
    const int first = tree.add(0, a_, DraftSource::kSpeculator);
    if (first > 0) tree.add(first, b_, DraftSource::kSpeculator);
  }
  void observe(const DraftTree&, const NodeLogits&) override {}
  void commit(TokenSpan) override {}
  int max_nodes() const override { return 2; }

 private:
  Token a_, b_;
};

TEST(CopyPathTest, SpeculatorGuessesItSecondsAreAKindOfTheirOwn) {
  // The copy continues "1 2 3" with 7 8; the speculator guesses 7 then 9. Calibration counts
  // its 7 as seconded (Agreement::kBoth) and its 9, which nothing else drafted, as alone.
  const Tokens prompt = {1, 2, 3, 7, 8, 5, 1, 2, 3};
  TreeShape s = shape(2);
  s.d_search = 0;
  s.speculator = {{-1, 0}, {0, 0}};  // room for its two nodes
  DraftPolicy calibrate;
  calibrate.calibrate = true;
  ReaderDrafter d(s, std::make_unique<FixedGuesses>(7, 9), nullptr, true, calibrate);
  d.begin(prompt);
  const DraftTree t = d.draft(prompt, 1 << 10);
  ASSERT_EQ(t.size(), 4);  // root, 7 (both), 9 (speculator), 8 (copy)
  std::vector<int> accepted = {0};
  for (int i = 1; i < t.size(); ++i)
    if (t.token(i) == 7) accepted.push_back(i);
  d.feedback(t, accepted);
  const AcceptanceCounts& counts = d.calibration_counts();
  const auto tried = [&](int depth, bool seconded) {
    double sum = 0;
    for (int strength = 0; strength < 4; ++strength)
      sum += counts.tried(AcceptanceCounts::cell(speculator_kind(depth, 0, strength, seconded)));
    return sum;
  };
  const double seconded_tried = tried(1, true), alone_tried = tried(2, false),
               alone_as_seconded = tried(2, true);
  EXPECT_EQ(seconded_tried, 1.0);
  EXPECT_EQ(alone_tried, 1.0);
  EXPECT_EQ(alone_as_seconded, 0.0);
}

}  // namespace
}  // namespace reader
