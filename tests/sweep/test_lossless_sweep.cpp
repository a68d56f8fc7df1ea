// The full losslessness sweep (label "sweep", not in CI): 32 prompts (RAG, code, math,
// chat), 128 new tokens, greedy and sampling with 3 seeds, on SmolLM2 and Gemma 3.
// READER_SWEEP_PROMPTS (per set, default 8) and READER_SWEEP_TOKENS (default 128) shrink it.
#include <gtest/gtest.h>

#include <cstdlib>

#include "lossless_check.h"
#include "reader/profile.h"

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
  Generator spec(m, {Method::kReader, {}, shared_datastore(GetParam()), nullptr});
  check_lossless_over_sets(m, ar, spec, GetParam() + "/reader sweep",
                           env_int("READER_SWEEP_PROMPTS", 8), env_int("READER_SWEEP_TOKENS", 128),
                           {-1, 1, 2, 3});
}

// What a user runs: READER with the profile setup's `reader tune` wrote for this machine (where
// the patched kernels serve every layer it verifies whole trees, README "Losslessness and
// rounding"). Skipped where no profile was written.
TEST(LosslessSweepTuned, ReaderWithTheModelsProfileMatchesAutoregressive) {
  Model& m = shared_model("smollm2", 64, 4096);
  const std::filesystem::path path = default_profile_path(m.options().path);
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "no profile at " << path;
  const Profile profile = load_profile(path);
  Generator ar(m, {Method::kAutoregressive, {}, nullptr, nullptr});
  MethodConfig config{Method::kReader, {}, shared_datastore("smollm2"), nullptr};
  config.profile = &profile;
  Generator spec(m, config);
  check_lossless_over_sets(m, ar, spec, "smollm2/reader tuned sweep",
                           env_int("READER_SWEEP_PROMPTS", 8), env_int("READER_SWEEP_TOKENS", 128),
                           {-1, 1, 2, 3},
                           exactness_for(m, profile.shape && !profile.shape->single_path));
}

INSTANTIATE_TEST_SUITE_P(Models, LosslessSweep, ::testing::ValuesIn(test_model_names()));

}  // namespace
}  // namespace reader::test
