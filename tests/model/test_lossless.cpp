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
  bool trees = false;   // multi-branch trees (not single_path): rounding-tolerant check
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
      GetParam().per_set, GetParam().max_tokens, {-1, 1},
      GetParam().trees ? Exactness::kRoundingTolerated : Exactness::kBitwise);
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
