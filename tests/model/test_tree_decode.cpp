// A draft tree decoded in ONE llama_decode call must give, at every node, what
// decoding that node's branch alone gives; afterwards the KV cache holds only what the
// caller kept.
#include <gtest/gtest.h>

#include <vector>

#include "model_fixture.h"
#include "reader/sampling.h"
#include "verify/prefill.h"

namespace reader::test {
namespace {

class TreeDecode : public ::testing::TestWithParam<std::string> {};

// Logits after prompt + path, computed the plain way (one sequence, fresh cache).
std::vector<float> reference_logits(Model& m, const Tokens& prompt, const Tokens& path) {
  m.kv_clear();
  Tokens all = prompt;
  all.insert(all.end(), path.begin(), path.end());
  const float* row = prefill(m, all, 0);
  return {row, row + m.n_vocab()};
}

TEST_P(TreeDecode, EveryNodeMatchesItsBranchDecodedAlone) {
  Model& m = shared_model(GetParam());
  const Tokens prompt = m.tokenize("The capital of France is Paris. The capital of Italy is", true);
  const int n = static_cast<int>(prompt.size());
  const Token r = m.tokenize(" Rome", false).front();
  const Token a1 = m.tokenize(".", false).front();
  const Token a2 = m.tokenize(" The", false).front();
  const Token b1 = m.tokenize(",", false).front();
  const Token c2 = m.tokenize(" It", false).front();

  // Tree: r -> a1 -> a2 (branch 1), r -> b1 (branch 2), r -> a1 -> c2 (branch 3).
  struct Node {
    Token tok;
    int depth;
    std::vector<int> ids;
    Tokens path;
  };
  const std::vector<Node> nodes = {
      {r, 0, {0, 1, 2, 3}, {r}}, {a1, 1, {1, 3}, {r, a1}},  {b1, 1, {2}, {r, b1}},
      {a2, 2, {1}, {r, a1, a2}}, {c2, 2, {3}, {r, a1, c2}},
  };

  // Committed prefix in sequence 0, shared with the branch ids.
  m.kv_clear();
  const int seq0[] = {0};
  std::vector<BatchToken> pb;
  for (int i = 0; i < n; ++i) pb.push_back({prompt[static_cast<size_t>(i)], i, seq0, false});
  m.decode(pb);
  for (int s = 1; s <= 3; ++s) m.kv_seq_cp(0, s, -1, -1);

  std::vector<BatchToken> tb;
  for (const Node& nd : nodes) tb.push_back({nd.tok, n + nd.depth, nd.ids, true});
  m.decode(tb);
  std::vector<std::vector<float>> tree_rows;
  for (size_t i = 0; i < nodes.size(); ++i) {
    const float* row = m.logits(static_cast<int>(i));
    tree_rows.emplace_back(row, row + m.n_vocab());
  }

  // Keep branch 3's path (r, a1, c2) in sequence 0; drop everything else.
  m.kv_seq_cp(3, 0, n + 1, n + 3);
  for (int s = 1; s <= 3; ++s) m.kv_seq_rm(s, -1, -1);
  EXPECT_EQ(m.kv_pos_min(0), 0);
  EXPECT_EQ(m.kv_pos_max(0), n + 2);
  for (int s = 1; s < m.n_seq_max(); ++s)
    EXPECT_EQ(m.kv_pos_max(s), -1) << "sequence " << s << " leaked";

  // The kept cache continues exactly like a plain decode of prompt + r a1 c2.
  const Token next = argmax(tree_rows[4].data(), m.n_vocab());
  const BatchToken nb{next, n + 3, seq0, true};
  m.decode({&nb, 1});
  const float* cont = m.logits(0);
  std::vector<float> cont_row(cont, cont + m.n_vocab());

  const bool exact = rows_are_bitwise(m);
  for (size_t i = 0; i < nodes.size(); ++i) {
    const auto ref = reference_logits(m, prompt, nodes[i].path);
    if (exact) {
      EXPECT_EQ(ref, tree_rows[i]) << "node " << i << ": not bitwise";
    }
    const Token want = argmax(ref.data(), m.n_vocab());
    const Token got = argmax(tree_rows[i].data(), m.n_vocab());
    if (want != got) {
      EXPECT_LT(top2_gap(ref.data(), m.n_vocab()), kLogitTieEpsilon) << "node " << i;
    }
  }
  Tokens kept_path = nodes[4].path;
  kept_path.push_back(next);
  const auto ref = reference_logits(m, prompt, kept_path);
  if (exact) {
    EXPECT_EQ(ref, cont_row) << "continuation after commit: not bitwise";
  }
  const Token want = argmax(ref.data(), m.n_vocab());
  if (want != argmax(cont_row.data(), m.n_vocab())) {
    EXPECT_LT(top2_gap(ref.data(), m.n_vocab()), kLogitTieEpsilon) << "continuation after commit";
  }
}

// A chain longer than the Q8_0 kernel's 8 or 16 columns per tile (and one spilling into a
// second tile) gives every row as the one-token decodes of the same tokens do
// (scripts/patches/llama.cpp-sgemm-q8-avx512.patch: each output is computed by the same steps
// whatever the number of tokens).
TEST_P(TreeDecode, LongChainsMatchOneTokenDecodes) {
  Model& m = shared_model(GetParam());
  const Tokens prompt = m.tokenize("Copy this: the quick brown fox jumps over the lazy dog", true);
  const Tokens text = m.tokenize(
      " and the quick brown fox jumps over the lazy dog again, twice, while the dog sleeps on "
      "and on in the afternoon sun",
      false);
  const int n = static_cast<int>(prompt.size());
  const int seq0[] = {0};
  const bool exact = rows_are_bitwise(m);
  for (int len : {9, 12, 16, 20}) {
    ASSERT_GE(std::ssize(text), len);
    m.kv_clear();
    prefill(m, prompt, 0);
    std::vector<BatchToken> chain;
    for (int i = 0; i < len; ++i)
      chain.push_back({text[static_cast<size_t>(i)], n + i, seq0, true});
    m.decode(chain);
    std::vector<std::vector<float>> rows;
    for (int i = 0; i < len; ++i) rows.emplace_back(m.logits(i), m.logits(i) + m.n_vocab());
    m.kv_seq_rm(0, n, -1);
    for (int i = 0; i < len; ++i) {
      const BatchToken one{text[static_cast<size_t>(i)], n + i, seq0, true};
      m.decode({&one, 1});
      const std::vector<float> ref(m.logits(0), m.logits(0) + m.n_vocab());
      if (exact) {
        EXPECT_EQ(ref, rows[static_cast<size_t>(i)]) << "chain of " << len << ", row " << i;
      } else if (argmax(ref.data(), m.n_vocab()) !=
                 argmax(rows[static_cast<size_t>(i)].data(), m.n_vocab())) {
        EXPECT_LT(top2_gap(ref.data(), m.n_vocab()), kLogitTieEpsilon) << "chain of " << len;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Models, TreeDecode, ::testing::ValuesIn(test_model_names()));

}  // namespace
}  // namespace reader::test
