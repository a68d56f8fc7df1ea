// Losslessness with the real models (CI subset; the full sweep is tests/sweep): every
// speculative method's text equals autoregressive decoding's, greedy and sampled.
#include <gtest/gtest.h>

#include "lossless_check.h"
#include "prompt_sets.h"

namespace reader::test {
namespace {

struct Case {
  std::string model;
  std::string method;
};

class Lossless : public ::testing::TestWithParam<Case> {};

TEST_P(Lossless, MatchesAutoregressiveOnMixedPrompts) {
  Model& m = shared_model(GetParam().model, 64, 4096);
  Generator ar(m, {Method::kAutoregressive, {}, nullptr, nullptr});
  Generator spec(m, {parse_method(GetParam().method), {}, nullptr, nullptr});
  int exact = 0, total = 0;
  for (const std::string& set : prompt_set_names()) {
    for (const PromptItem& item : load_prompt_set(set, default_data_dir(), 2)) {
      const Tokens prompt = m.tokenize(m.apply_chat_template(item.user), true, true);
      for (int seed : {-1, 1}) {
        GenerationOptions opts;
        opts.max_tokens = 48;
        if (seed >= 0) opts.sampling = {0.8f, 40, 0.95f, static_cast<uint64_t>(seed)};
        const LosslessOutcome o = compare_with_autoregressive(m, ar, spec, prompt, opts);
        ++total;
        exact += o.exact;
        EXPECT_TRUE(o.tolerated) << item.id << " seed " << seed << ": " << o.detail;
        if (!o.exact)
          std::printf("  [tolerated] %s seed %d: %s\n", item.id.c_str(), seed, o.detail.c_str());
      }
    }
  }
  std::printf("%s/%s: %d of %d runs identical\n", GetParam().model.c_str(),
              GetParam().method.c_str(), exact, total);
}

INSTANTIATE_TEST_SUITE_P(Models, Lossless,
                         ::testing::Values(Case{"smollm2", "reader"}, Case{"smollm2", "recycling"},
                                           Case{"smollm2", "retrieval"}, Case{"gemma3", "reader"}),
                         [](const auto& info) {
                           return info.param.model + "_" + info.param.method;
                         });

}  // namespace
}  // namespace reader::test
