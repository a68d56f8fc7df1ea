// The graph cache (scripts/patches/llama.cpp-graph-cache.patch) swaps in a compute graph built
// for an earlier batch of the same shape: a stale input or a graph kept past a change of the
// KV cache would show here as logits that differ from a context that rebuilds every graph.
// The same steps also check the other patches that must leave every logit row as it was:
// padded decodes and repacked weights.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "llama.h"
#include "model_fixture.h"

namespace reader::test {
namespace {

class GraphCache : public ::testing::TestWithParam<std::string> {};

// A hash of each of the last decode's first n logit rows.
std::vector<size_t> hashed_rows(const Model& m, int n) {
  std::vector<size_t> rows;
  for (int i = 0; i < n; ++i)
    rows.push_back(std::hash<std::string_view>{}(
        std::string_view(reinterpret_cast<const char*>(m.logits(i)),
                         sizeof(float) * static_cast<size_t>(m.n_vocab()))));
  return rows;
}

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
  const int sizes[] = {1, 4, 1, 2, 5, 1, 3, 40, 1, 2, 7, 1};
  std::vector<size_t> rows;
  EXPECT_LT(pos, 250);
  for (int round = 0; pos < 280; ++round) {
    for (int n : sizes) {
      batch.clear();
      for (int i = 0; i < n; ++i)
        batch.push_back(
            {static_cast<Token>(100 + (pos * 7 + i * 13 + round) % 5000), pos + i, seq0, true});
      m.decode(batch);
      EXPECT_EQ(m.kv_pos_max(0), pos + n - 1) << "fillers left in the KV cache";
      const std::vector<size_t> step_rows = hashed_rows(m, n);
      rows.insert(rows.end(), step_rows.begin(), step_rows.end());
      m.kv_seq_rm(0, pos + 1, -1);  // keep one token, as a step that accepts nothing
      ++pos;
    }
  }
  return rows;
}

// The model as these tests load it: a small context, offloaded where the tests run on a GPU
// (the patch serves every backend's graphs).
ModelOptions small_context(const std::string& name) {
  ModelOptions o;
  o.path = test_model_path(name);
  o.n_seq_max = 4;
  o.n_ctx = 1024;
  o.offload(test_gpu_layers());
  return o;
}

TEST_P(GraphCache, LogitsEqualRebuildingEveryGraph) {
  ModelOptions o = small_context(GetParam());
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

// Weights repacked at load (scripts/patches/llama.cpp-repack-q8-avx512.patch, reader's default
// where it runs) are the same arithmetic in another layout: every logit row of the same steps
// must be bitwise that of the weights as the file holds them, for one token and for many.
TEST_P(GraphCache, RepackedWeightsGiveTheSameLogits) {
  if (!repack_by_default()) GTEST_SKIP() << "llama.cpp built without the Q8_0 AVX512-VNNI repack";
  ModelOptions o = small_context(GetParam());
  o.extra_buffers = false;
  auto plain = Model::load(o);
  const auto want = run_steps(*plain);
  plain.reset();
  o.extra_buffers = true;
  auto repacked = Model::load(o);
  EXPECT_EQ(run_steps(*repacked), want);
}

// Padded decodes (ModelOptions::pad_decodes) add fillers after the batch: its rows and the
// KV cache it leaves must be the batch's alone. Bitwise where the kernels are batch-invariant.
TEST_P(GraphCache, PaddedDecodesLeaveTheBatchAlone) {
  ModelOptions o = small_context(GetParam());
  o.pad_decodes = false;
  auto plain = Model::load(o);
  const auto want = run_steps(*plain);
  o.pad_decodes = true;
  auto padded = Model::load(o);
  const auto got = run_steps(*padded);
  ASSERT_EQ(want.size(), got.size());
  if (rows_are_bitwise(*plain)) {
    for (size_t i = 0; i < want.size(); ++i) ASSERT_EQ(want[i], got[i]) << "row " << i;
  }

  // A two-branch tree of 5 tokens (padded to 8): the fillers continue the last token's
  // branch, and neither branch sees them or keeps them.
  const int s0[] = {0}, s1[] = {1}, both[] = {0, 1};
  std::vector<std::vector<size_t>> tree_rows;
  for (Model* m : {plain.get(), padded.get()}) {
    m->kv_clear();
    const Tokens prompt = m->tokenize("A tree of drafts, verified in one pass.", true);
    std::vector<BatchToken> batch;
    int pos = 0;
    for (Token t : prompt) batch.push_back({t, pos++, both, false});
    m->decode(batch);
    batch = {{401, pos, both, true},
             {402, pos + 1, s0, true},
             {403, pos + 1, s1, true},
             {404, pos + 2, s0, true},
             {405, pos + 2, s1, true}};
    m->decode(batch);
    EXPECT_EQ(m->kv_pos_max(0), pos + 2);
    EXPECT_EQ(m->kv_pos_max(1), pos + 2);
    tree_rows.push_back(hashed_rows(*m, 5));
  }
  if (rows_are_bitwise(*plain)) {
    EXPECT_EQ(tree_rows[0], tree_rows[1]);
  }
}

#if READER_HAVE_GRAPH_CACHE
// llama.cpp's backend samplers keep the input tensors of the graph they were built with, so a
// swapped-in graph would sample with stale inputs (the patch leaves the cache off for them).
// Through the C API directly: reader itself samples on the CPU.
std::vector<llama_token> backend_sampled(llama_model* model, int graph_cache) {
  llama_sampler* chain = llama_sampler_chain_init(llama_sampler_chain_default_params());
  llama_sampler_chain_add(chain, llama_sampler_init_temp(3.0f));
  llama_sampler_chain_add(chain, llama_sampler_init_dist(1234));
  llama_sampler_seq_config config = {0, chain};
  llama_context_params cp = llama_context_default_params();
  cp.n_ctx = 512;
  cp.n_batch = cp.n_ubatch = 64;
  cp.n_seq_max = 1;
  cp.n_outputs_max_per_seq = 4;
  cp.samplers = &config;
  cp.n_samplers = 1;
  llama_context* ctx = llama_init_from_model(model, cp);
  std::vector<llama_token> out;
  if (ctx != nullptr) {
    llama_set_graph_cache(ctx, graph_cache, 32);
    llama_batch b = llama_batch_init(8, 0, 1);
    for (int step = 0; step < 24; ++step) {
      const int k = step % 2 == 0 ? 1 : 3;  // alternating shapes: a cache would swap every step
      b.n_tokens = k;
      for (int j = 0; j < k; ++j) {
        b.token[j] = 100 + step + j;
        b.pos[j] = j;
        b.n_seq_id[j] = 1;
        b.seq_id[j][0] = 0;
        b.logits[j] = 1;
      }
      if (llama_decode(ctx, b) != 0) break;
      for (int j = 0; j < k; ++j) out.push_back(llama_get_sampled_token_ith(ctx, j));
      llama_sampler_accept(chain, out[out.size() - static_cast<size_t>(k)]);  // advances the draws
      llama_memory_seq_rm(llama_get_memory(ctx), 0, 0, -1);
    }
    llama_batch_free(b);
    llama_free(ctx);
  }
  llama_sampler_free(chain);
  return out;
}

TEST_P(GraphCache, BackendSamplerUnaffected) {
  const std::string path = test_model_path(GetParam()).string();
  llama_model* model = llama_model_load_from_file(path.c_str(), llama_model_default_params());
  ASSERT_NE(model, nullptr);
  const auto want = backend_sampled(model, 0);
  const auto got = backend_sampled(model, 4);
  llama_model_free(model);
  ASSERT_EQ(want.size(), 48u);
  EXPECT_EQ(want, got);
}
#endif

INSTANTIATE_TEST_SUITE_P(Models, GraphCache, ::testing::ValuesIn(test_model_names()));

}  // namespace
}  // namespace reader::test
