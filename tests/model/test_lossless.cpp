// Losslessness with the real models (CI subset; the full sweep is tests/sweep): every
// speculative method's text equals autoregressive decoding's, greedy and sampled, and with
// the default single-path verification so does every logit row the policy saw, bit for bit.
#include <gtest/gtest.h>

#include "lossless_check.h"
#include "test_profile_fixture.h"

namespace reader::test {
namespace {

struct Case {
  std::string model;
  std::string method;
  bool trees = false;   // whole trees (not single_path): bitwise where Model::trees_bitwise
  int per_set = 2;      // prompts per prompt set
  int max_tokens = 48;  // new tokens per run
  bool padded = false;  // verification batches padded with fillers (ModelOptions::pad_decodes)
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.model << "/" << c.method << (c.trees ? "/trees" : "") << (c.padded ? "/padded" : "");
}

class Lossless : public ::testing::TestWithParam<Case> {};

TEST_P(Lossless, MatchesAutoregressiveOnMixedPrompts) {
  Model& m = shared_model(GetParam().model, 64, 4096, GetParam().padded);
  Generator ar(m, {Method::kAutoregressive, {}, nullptr, nullptr});
  const Method method = parse_method(GetParam().method);
  TreeShape shape = default_tree_shape(method);
  shape.single_path = !GetParam().trees;
  // The draft method drafts with a second instance of the same model: the only pair with one
  // vocabulary we have (a draft costs as much as a verification, so fewer, shorter runs).
  Model* draft = method == Method::kDraft ? &shared_model(GetParam().model, 16, 4096) : nullptr;
  MethodConfig config{method, shape, shared_datastore(GetParam().model), draft};
  // Said to be cheap and sure, so that it drafts and its drafts are verified (as measured, it
  // would not run at all: DraftPolicy.DraftModelRunsOnlyWhereItCanPay).
  const Profile sure = fixed_profile(m, 0.9);
  if (draft) {
    config.draft_cost = 0.02;
    config.profile = &sure;
  }
  Generator spec(m, config);
  check_lossless_over_sets(
      m, ar, spec, GetParam().model + "/" + GetParam().method + (GetParam().trees ? "-trees" : ""),
      GetParam().per_set, GetParam().max_tokens, {-1, 1}, exactness_for(m, GetParam().trees));
}

// Whole trees leave free cells between the ones they keep, which later cells never fill, so
// that every cell stays in position order (llama.cpp-kv-append.patch). When a generation runs
// close to the end of the context, the engine closes the holes by moving the cells together
// (Model::kv_compact) or stops verifying whole trees while the rest still fits (engine.cpp):
// either way no cell is placed out of order, and the run stays bitwise.
LosslessOutcome count_to_the_end(Model& m, int cells_short) {
  Generator ar(m, {Method::kAutoregressive, {}, nullptr, nullptr});
  TreeShape shape = default_tree_shape(Method::kReader);
  shape.single_path = false;
  const Profile sure = fixed_profile(m, 0.9);  // trees of many branches, every step
  MethodConfig config{Method::kReader, shape, shared_datastore("smollm2"), nullptr};
  config.profile = &sure;
  Generator spec(m, config);
  // Counting goes on for as long as it may.
  const Tokens prompt = m.tokenize("1, 2, 3, 4, 5, 6, 7, 8,", true);
  GenerationOptions opts;
  opts.max_tokens = m.n_ctx() - static_cast<int>(prompt.size()) - cells_short;
  return compare_with_autoregressive(m, ar, spec, prompt, opts);
}

TEST(LosslessTrees, CloseToAFullContext) {
  Model& m = shared_model("smollm2", 64, 512);
  if (!m.trees_bitwise()) GTEST_SKIP() << "whole trees are not bitwise here";
  const LosslessOutcome o = count_to_the_end(m, 24);
  EXPECT_TRUE(o.exact && o.rows_identical) << o.detail;
  // The run's cells stay in the cache: trees did leave holes, and everything still fit.
  EXPECT_GT(m.kv_holes() + o.spec_stats.kv_compactions, 0)
      << "no whole tree kept a later branch: nothing was tested";
  EXPECT_LE(m.kv_pos_max(0) + 1 + m.kv_holes(), m.n_ctx());
}

TEST(LosslessTrees, ToTheEndOfTheContext) {
  Model& m = shared_model("smollm2", 64, 512);
  if (!m.trees_bitwise()) GTEST_SKIP() << "whole trees are not bitwise here";
  const LosslessOutcome o = count_to_the_end(m, 0);
  EXPECT_TRUE(o.exact && o.rows_identical) << o.detail;
  // A max_tokens that reaches the end of the context no longer rules out whole trees: their
  // holes were closed on the way.
  EXPECT_GE(o.spec_stats.kv_compactions, 1);
  EXPECT_LE(m.kv_pos_max(0) + 1 + m.kv_holes(), m.n_ctx());
}

INSTANTIATE_TEST_SUITE_P(Models, Lossless,
                         ::testing::Values(Case{"smollm2", "reader"}, Case{"smollm2", "recycling"},
                                           Case{"smollm2", "retrieval"},
                                           Case{"smollm2", "draft", false, 1, 24},
                                           Case{"gemma3", "reader"},
                                           Case{"smollm2", "reader", true},
                                           Case{"smollm2", "reader", false, 1, 48, true}),
                         [](const auto& info) {
                           return info.param.model + "_" + info.param.method +
                                  (info.param.trees ? "_trees" : "") +
                                  (info.param.padded ? "_padded" : "");
                         });

}  // namespace
}  // namespace reader::test
