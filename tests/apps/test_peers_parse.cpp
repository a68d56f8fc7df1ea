// The benchmark peers' output parsing (apps/common/peers.h) against outputs built the way
// llama-speculative-simple and llama-lookup print them, with random texts and counts.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>

#include "peers.h"

namespace reader {
namespace {

std::string random_text(std::mt19937& rng, int max_len) {
  // Newlines, spaces and the chat template's special-token characters are the risky ones.
  static const std::string alphabet = "ab \n\n<|>_/x\t";
  std::uniform_int_distribution<int> len(0, max_len),
      pick(0, static_cast<int>(alphabet.size()) - 1);
  std::string s;
  for (int i = len(rng); i > 0; --i) s.push_back(alphabet[static_cast<size_t>(pick(rng))]);
  return s;
}

TEST(PeerParse, ExtractsGeneratedTextAfterTheEchoedPrompt) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 2000; ++trial) {
    const std::string prompt =
        "<|im_start|>user\n" + random_text(rng, 20) + "<|im_start|>assistant\n";
    const std::string generated = random_text(rng, 40);
    const std::string bos = trial % 3 == 0 ? "<bos>" : "";
    const std::string out = "\n\n" + bos + prompt + generated + "\n\n\n\n";
    const auto got = extract_generated_text(out, prompt);
    ASSERT_TRUE(got.has_value()) << trial;
    EXPECT_EQ(*got, generated) << trial;
  }
}

TEST(PeerParse, RejectsOutputWithoutPromptOrEnd) {
  EXPECT_FALSE(extract_generated_text("", "p"));
  EXPECT_FALSE(extract_generated_text("\n\nq text\n\n\n\n", "p"));
  EXPECT_FALSE(extract_generated_text("\n\np text\n\n", "p"));  // cut short
  EXPECT_FALSE(extract_generated_text("p text\n\n\n\n", "p"));  // no leading blank lines
  EXPECT_EQ(extract_generated_text("\n\np\n\n\n\n", "p"), "");
}

TEST(PeerParse, ParsesCountersWithOrWithoutLogPrefixes) {
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> count(0, 5000);
  for (int trial = 0; trial < 500; ++trial) {
    const int decoded = 1 + count(rng), drafted = count(rng);
    const int accepted = std::min({drafted, decoded, count(rng)});
    const double seconds = count(rng) / 997.0;
    const std::string prefix = trial % 2 ? "0.31.717.782 I " : "";
    char line[160];
    std::snprintf(line, sizeof line, "decoded %4d tokens in %8.3f seconds, speed: %8.3f t/s\n",
                  decoded, seconds, seconds > 0 ? decoded / seconds : 0.0);
    const std::string pad = trial % 3 ? "   " : " ";  // llama-lookup aligns its '='
    const std::string err = "load stuff\n" + prefix + "encoded  100 tokens in 0.1 seconds\n" +
                            prefix + line + prefix + "n_predict" + pad + "= 9\n" + prefix +
                            "n_drafted" + pad + "= " + std::to_string(drafted) + "\n" + prefix +
                            "n_accept" + pad + " = " + std::to_string(accepted) + "\n";
    const auto c = parse_peer_counters(err);
    ASSERT_TRUE(c.has_value()) << err;
    EXPECT_EQ(c->decoded, decoded);
    EXPECT_NEAR(c->seconds, seconds, 0.0005);
    EXPECT_EQ(c->drafted, drafted);
    EXPECT_EQ(c->accepted, accepted);
  }
}

TEST(PeerParse, RejectsMissingOrInconsistentCounters) {
  EXPECT_FALSE(parse_peer_counters(""));
  EXPECT_FALSE(parse_peer_counters("n_drafted = 3\nn_accept = 1\n"));
  EXPECT_FALSE(
      parse_peer_counters("decoded 10 tokens in 1.0 seconds\nn_drafted = 1\nn_accept = 2\n"));
  EXPECT_FALSE(parse_peer_counters("decoded 99999999999999999999 tokens in 1.0 seconds\n"));
  const auto c = parse_peer_counters("decoded 10 tokens in 0.5 seconds\n");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->drafted, 0);
}

TEST(PeerParse, TextMatchesByPrefix) {
  EXPECT_TRUE(peer_text_matches("abc", "abc"));
  EXPECT_TRUE(peer_text_matches("abc def<|im_end|>", "abc"));  // lookup: overshoot, EOS piece
  EXPECT_FALSE(peer_text_matches("ab", "abc"));
  EXPECT_FALSE(peer_text_matches("abd", "abc"));
  EXPECT_FALSE(peer_text_matches("x", ""));
  EXPECT_TRUE(peer_text_matches("", ""));
}

TEST(PeerConfigs, NamesAreUniqueAndEachProgramHasAPlainBaseline) {
  for (const auto& configs : {default_peer_configs(), sweep_peer_configs()}) {
    std::set<std::string> names;
    bool llama_ar = false, py_ar = false;
    for (const auto& c : configs) {
      EXPECT_TRUE(names.insert(c.name).second) << "duplicate " << c.name;
      EXPECT_FALSE(c.name.empty());
      llama_ar |= c.baseline && c.name == "llama:ar";
      py_ar |= c.baseline && c.name == "py:ar";
      if (c.program == PeerProgram::kSpeculativeSimple) {
        ASSERT_GE(c.args.size(), 2u) << c.name;
        EXPECT_EQ(c.args[0], "--spec-type") << c.name;
      }
    }
    EXPECT_TRUE(llama_ar);
    EXPECT_TRUE(py_ar);
  }
  EXPECT_EQ(peer_type(default_peer_configs()[2]), "llama:ngram-simple");
}

}  // namespace
}  // namespace reader
