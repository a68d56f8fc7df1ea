// Speculation really happens: on a prompt whose answer copies a passage of the prompt, each
// method drafts from every source it has, commits well over one token per forward pass, and
// commits drafted tokens (retrieval's, or Token Recycling's once its table has seen the text). The
// lossless, KV and determinism tests all pass for a drafter that never drafts (a step that verifies
// only the root is plain decoding); these do not.
#include <gtest/gtest.h>

#include <vector>

#include "lossless_check.h"
#include "test_profile_fixture.h"

namespace reader::test {
namespace {

// A passage and the instruction to repeat it verbatim: SmolLM2 copies it (checked below), so
// the short-term trie holds the whole answer and retrieval must find it.
constexpr const char* kPassage =
    "The lighthouse keeper climbed the spiral stairs every evening at dusk. He wound the "
    "clockwork, trimmed the wick and polished the great lens until it shone. Ships far out "
    "at sea saw the beam sweep across the water and knew the rocks were near.";

std::string copy_prompt() {
  return std::string("Repeat the following text exactly, word for word:\n\n") + kPassage;
}

size_t index(DraftSource s) { return static_cast<size_t>(s); }

std::string describe(const GenerationStats& s) {
  std::string out = std::to_string(s.generated_tokens) + " tokens in " + std::to_string(s.steps) +
                    " steps; drafted/accepted by source:";
  for (size_t i = 0; i < s.drafted_by_source.size(); ++i)
    out += std::string(" ") + std::string(to_string(static_cast<DraftSource>(i))) + " " +
           std::to_string(s.drafted_by_source[i]) + "/" + std::to_string(s.accepted_by_source[i]);
  return out;
}

struct Case {
  std::string method;
  std::vector<DraftSource> drafts_from;    // sources that must send nodes to verification
  std::vector<DraftSource> accepted_from;  // sources that must have drafts committed
  double min_tokens_per_step_cold = 0;     // mean_accepted of the first run above this
  double min_tokens_per_step_warm = 0;     // ... and of the second
  int seed = -1;                           // -1: greedy
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.method << "/seed" << c.seed; }

class Drafting : public ::testing::TestWithParam<Case> {};

// The prompt twice on one generator: first with Token Recycling's successor table cold, then
// warm from the first answer (the table carries over between requests, as in the paper), so
// both retrieval (the prompt holds the answer) and recycling (the first answer does) can
// draft and must be accepted.
TEST_P(Drafting, CopyHeavyPromptIsDraftedAndAccepted) {
  const Case& c = GetParam();
  Model& m = shared_model("smollm2", 64, 4096);
  const Profile profile = calibrated_profile(m);  // what generate drafts with after setup
  MethodConfig config{parse_method(c.method), {}, shared_datastore("smollm2"), nullptr};
  config.profile = &profile;
  config.adapt_cost = false;  // drafting as the profile prices it, whatever the hour
  Generator spec(m, config);
  GenerationOptions opts;
  opts.max_tokens = 56;
  if (c.seed >= 0) opts.sampling = {0.8f, 40, 0.95f, static_cast<uint64_t>(c.seed)};
  const Tokens prompt = m.tokenize(m.apply_chat_template(copy_prompt()), true, true);
  const GenerationResult cold = spec.run(prompt, opts);
  const GenerationResult warm = spec.run(prompt, opts);
  const std::string stats = "cold: " + describe(cold.stats) + "\nwarm: " + describe(warm.stats);
  std::printf("%s (%.2f / %.2f tokens per step)\n%s\n", c.method.c_str(),
              cold.stats.mean_accepted(), warm.stats.mean_accepted(), stats.c_str());

  // The prompt does what it is for: the model copies the passage (its first sentence). This
  // depends on the model only, never on the drafter (the output is AR's).
  ASSERT_NE(cold.text.find(std::string(kPassage).substr(0, 68)), std::string::npos)
      << "the model did not copy the passage, so this prompt tests nothing: " << cold.text;
  EXPECT_EQ(cold.tokens, warm.tokens);

  EXPECT_GT(cold.stats.mean_accepted(), c.min_tokens_per_step_cold) << stats;
  EXPECT_GT(warm.stats.mean_accepted(), c.min_tokens_per_step_warm) << stats;
  for (const GenerationResult* r : {&cold, &warm}) {
    const GenerationStats& s = r->stats;
    int drafted = 0;
    for (int n : s.drafted_by_source) drafted += n;
    EXPECT_EQ(drafted, s.drafted_tokens) << "per-source counts must add up: " << stats;
    EXPECT_EQ(s.drafted_by_source[index(DraftSource::kModel)], 0)
        << "the root is never a drafted token: " << stats;
    for (size_t i = 1; i < s.drafted_by_source.size(); ++i) {
      EXPECT_LE(s.accepted_by_source[i], s.drafted_by_source[i]) << stats;
    }
  }
  for (DraftSource src : c.drafts_from) {
    EXPECT_GT(cold.stats.drafted_by_source[index(src)] + warm.stats.drafted_by_source[index(src)],
              0)
        << "nothing drafted by " << to_string(src) << ":\n"
        << stats;
  }
  for (DraftSource src : c.accepted_from) {
    EXPECT_GT(cold.stats.accepted_by_source[index(src)] + warm.stats.accepted_by_source[index(src)],
              0)
        << "nothing accepted from " << to_string(src) << ":\n"
        << stats;
  }
}

// The copy drafts little here (a node in the cold run): the trie already follows the one
// passage, and the copy adds only where the two differ.
constexpr DraftSource kSpec = DraftSource::kSpeculator, kWide = DraftSource::kWidening,
                      kCopy = DraftSource::kCopy;

INSTANTIATE_TEST_SUITE_P(
    SmolLM2, Drafting,
    // Measured (tokens per forward pass, the prompt's counted; session
    // 15): reader 8.2 / 8.2 greedy, 2.9 / 5.2 sampled; retrieval 8.2 /
    // 8.2; recycling 1.0 / 1.9 (its table knows one successor per token,
    // and "the" has seven here).
    ::testing::Values(Case{"reader", {kSpec, kWide, kCopy}, {kWide}, 4.0, 4.0},
                      Case{"reader", {kSpec, kWide, kCopy}, {kWide}, 2.5, 3.0, 1},
                      Case{"retrieval", {kWide}, {kWide}, 4.0, 4.0},
                      Case{"recycling", {kSpec}, {kSpec}, 0.0, 1.3}),
    [](const auto& info) {
      return info.param.method + (info.param.seed >= 0 ? "_sampled" : "_greedy");
    });

}  // namespace
}  // namespace reader::test
