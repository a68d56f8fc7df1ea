// The graph cache (scripts/patches/llama.cpp-graph-cache.patch) swaps in a compute graph built
// for an earlier batch of the same shape: a stale input or a graph kept past a change of the
// KV cache would show here as logits that differ from a context that rebuilds every graph.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "model_fixture.h"

namespace reader::test {
namespace {

class GraphCache : public ::testing::TestWithParam<std::string> {};

// Decodes a prompt, then verification-like steps of changing sizes (one over the cache's
// size limit), each keeping its first token and dropping the rest as rejected drafts; the
// context crosses llama.cpp's 256-cell padding. Returns a hash of every logit row.
std::vector<size_t> run_steps(Model& m) {
  m.kv_clear();
  std::string text;
  while (text.size() < 900) text += "The graph cache keeps compute graphs of a few sizes. ";
  const Tokens prompt = m.tokenize(text, true);
  const int seq0[] = {0};
  std::vector<BatchToken> batch;
  int pos = 0;
  for (Token t : prompt) batch.push_back({t, pos++, seq0, false});
  m.decode(batch);
  const int sizes[] = {1, 4, 1, 2, 4, 1, 3, 40, 1, 2, 4, 1};
  std::vector<size_t> rows;
  EXPECT_LT(pos, 250);
  for (int round = 0; pos < 280; ++round) {
    for (int n : sizes) {
      batch.clear();
      for (int i = 0; i < n; ++i)
        batch.push_back(
            {static_cast<Token>(100 + (pos * 7 + i * 13 + round) % 5000), pos + i, seq0, true});
      m.decode(batch);
      for (int i = 0; i < n; ++i) {
        const float* row = m.logits(i);
        rows.push_back(std::hash<std::string_view>{}(std::string_view(
            reinterpret_cast<const char*>(row), sizeof(float) * static_cast<size_t>(m.n_vocab()))));
      }
      m.kv_seq_rm(0, pos + 1, -1);  // keep one token, as a step that accepts nothing
      ++pos;
    }
  }
  return rows;
}

TEST_P(GraphCache, LogitsEqualRebuildingEveryGraph) {
  ModelOptions o;
  o.path = test_model_path(GetParam());
  o.n_seq_max = 4;
  o.n_ctx = 1024;
  o.graph_cache = 0;
  auto rebuild = Model::load(o);
  const auto want = run_steps(*rebuild);
  rebuild.reset();
  o.graph_cache = 3;  // fewer slots than sizes: eviction is exercised too
  auto cached = Model::load(o);
  const auto got = run_steps(*cached);
  ASSERT_EQ(want.size(), got.size());
  for (size_t i = 0; i < want.size(); ++i) ASSERT_EQ(want[i], got[i]) << "row " << i << ": differs";
}

INSTANTIATE_TEST_SUITE_P(Models, GraphCache, ::testing::ValuesIn(test_model_names()));

}  // namespace
}  // namespace reader::test
