// Method "suffix" (SuffixDecoding) with the real model: its output is the autoregressive
// output, and it really drafts: from the prompt on a copy-heavy prompt, and from the tree
// of earlier outputs when a prompt comes again. Skipped where the build has no
// ArcticInference sources (scripts/setup.sh provides them).
#include <gtest/gtest.h>

#include "lossless_check.h"
#include "reader/suffix_drafter.h"

namespace reader::test {
namespace {

class SuffixMethod : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!suffix_decoding_available()) GTEST_SKIP() << "no SuffixDecoding sources in this build";
  }
  Model& model() { return shared_model("smollm2", 64, 4096); }
  Tokens chat(const std::string& user) {
    return model().tokenize(model().apply_chat_template(user), true, true);
  }
};

int accepted_from_suffix(const GenerationResult& r) {
  return r.stats.accepted_by_source[static_cast<size_t>(DraftSource::kSuffix)];
}

TEST_F(SuffixMethod, MatchesAutoregressiveGreedyAndSampled) {
  Generator ar(model(), {Method::kAutoregressive, {}, nullptr, nullptr});
  Generator suffix(model(), {Method::kSuffix, {}, nullptr, nullptr});
  int drafted = 0;
  for (const char* user : {"What is the capital of France? Answer in one sentence.",
                           "Write a Python function that returns the square of a number.",
                           "List three colors of the rainbow."}) {
    for (int seed : {-1, 3}) {
      GenerationOptions opts;
      opts.max_tokens = 32;
      if (seed >= 0) opts.sampling = {0.8f, 40, 0.95f, static_cast<uint64_t>(seed)};
      const GenerationResult a = ar.run(chat(user), opts);
      const GenerationResult b = suffix.run(chat(user), opts);
      EXPECT_EQ(a.tokens, b.tokens) << user << " seed " << seed;
      EXPECT_EQ(a.text, b.text);
      EXPECT_EQ(a.stop_reason, b.stop_reason);
      drafted += b.stats.drafted_tokens;
    }
  }
  EXPECT_GT(drafted, 0);  // the prompts and earlier outputs give it something to draft
}

TEST_F(SuffixMethod, DraftsAndAcceptsOnCopyHeavyPrompt) {
  Generator ar(model(), {Method::kAutoregressive, {}, nullptr, nullptr});
  Generator suffix(model(), {Method::kSuffix, {}, nullptr, nullptr});
  const Tokens prompt = chat(
      "Repeat the following text exactly, word for word:\n\nThe old lighthouse stood on the "
      "rocky cliff above the harbor. Every night its keeper climbed the spiral stairs, lit the "
      "great lamp, and watched the ships pass safely through the narrow channel below.");
  GenerationOptions opts;
  opts.max_tokens = 48;
  const GenerationResult a = ar.run(prompt, opts);
  const GenerationResult b = suffix.run(prompt, opts);
  EXPECT_EQ(a.tokens, b.tokens);
  std::printf("copy prompt: %.2f tokens/step, %d drafted, %d accepted from suffix trees\n",
              b.stats.mean_accepted(), b.stats.drafted_tokens, accepted_from_suffix(b));
  EXPECT_GT(b.stats.mean_accepted(), 2.0);
  EXPECT_GT(accepted_from_suffix(b), b.stats.generated_tokens / 2);
}

TEST_F(SuffixMethod, EarlierOutputsDraftARepeatedPrompt) {
  Generator suffix(model(), {Method::kSuffix, {}, nullptr, nullptr});
  const Tokens prompt = chat("Name a famous scientist and say what they discovered.");
  GenerationOptions opts;
  opts.max_tokens = 32;
  const GenerationResult first = suffix.run(prompt, opts);
  const GenerationResult second = suffix.run(prompt, opts);  // same greedy output, now cached
  EXPECT_EQ(first.tokens, second.tokens);
  std::printf("repeated prompt: %.2f then %.2f tokens/step\n", first.stats.mean_accepted(),
              second.stats.mean_accepted());
  EXPECT_GT(second.stats.mean_accepted(), first.stats.mean_accepted());
  EXPECT_GT(second.stats.mean_accepted(), 2.0);
}

}  // namespace
}  // namespace reader::test
