// The full losslessness sweep (label "sweep", not in CI): 32 prompts (RAG, code, math,
// chat), 128 new tokens, greedy and sampling with 3 seeds, on SmolLM2 and Gemma 3.
// READER_SWEEP_PROMPTS (per set, default 8) and READER_SWEEP_TOKENS (default 128) shrink it.
#include <gtest/gtest.h>

#include <cstdlib>

#include "lossless_check.h"
#include "prompt_sets.h"

namespace reader::test {
namespace {

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::atoi(v) : fallback;
}

class LosslessSweep : public ::testing::TestWithParam<std::string> {};

TEST_P(LosslessSweep, ReaderMatchesAutoregressive) {
  Model& m = shared_model(GetParam(), 64, 4096);
  Generator ar(m, {Method::kAutoregressive, {}, nullptr, nullptr});
  Generator spec(m, {Method::kReader, {}, nullptr, nullptr});
  const int per_set = env_int("READER_SWEEP_PROMPTS", 8);
  int exact = 0, total = 0;
  for (const std::string& set : prompt_set_names()) {
    for (const PromptItem& item : load_prompt_set(set, default_data_dir(), per_set)) {
      const Tokens prompt = m.tokenize(m.apply_chat_template(item.user), true, true);
      for (int seed : {-1, 1, 2, 3}) {
        GenerationOptions opts;
        opts.max_tokens = env_int("READER_SWEEP_TOKENS", 128);
        if (seed >= 0) opts.sampling = {0.8f, 40, 0.95f, static_cast<uint64_t>(seed)};
        const LosslessOutcome o = compare_with_autoregressive(m, ar, spec, prompt, opts);
        ++total;
        exact += o.exact;
        EXPECT_TRUE(o.tolerated) << item.id << " seed " << seed << ": " << o.detail;
        if (!o.exact)
          std::printf("  [%s] %s seed %d: %s\n", o.tolerated ? "tolerated" : "FAIL",
                      item.id.c_str(), seed, o.detail.c_str());
      }
    }
  }
  std::printf("%s/reader sweep: %d of %d runs identical (%.1f%%)\n", GetParam().c_str(), exact,
              total, 100.0 * exact / total);
}

INSTANTIATE_TEST_SUITE_P(Models, LosslessSweep, ::testing::ValuesIn(test_model_names()));

}  // namespace
}  // namespace reader::test
