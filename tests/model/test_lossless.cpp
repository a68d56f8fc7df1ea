// Losslessness with the real models (CI subset; the full sweep is tests/sweep): every
// speculative method's text equals autoregressive decoding's, greedy and sampled.
#include <gtest/gtest.h>

#include "lossless_check.h"

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
  check_lossless_over_sets(m, ar, spec, GetParam().model + "/" + GetParam().method, 2, 48, {-1, 1});
}

INSTANTIATE_TEST_SUITE_P(Models, Lossless,
                         ::testing::Values(Case{"smollm2", "reader"}, Case{"smollm2", "recycling"},
                                           Case{"smollm2", "retrieval"}, Case{"gemma3", "reader"}),
                         [](const auto& info) {
                           return info.param.model + "_" + info.param.method;
                         });

}  // namespace
}  // namespace reader::test
