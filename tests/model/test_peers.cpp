// Benchmark peers (apps/common/peers.h, `reader bench --peers`): bad input gets a one-line
// error, and where scripts/build_peers.sh has built them, one short peer run parses sanely
// and reproduces reader's autoregressive text (same kernels, model and tokenization).
// Builds nothing: the tests skip when the peer programs are absent.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>

#include "cli_runner.h"
#include "model_fixture.h"
#include "peers.h"
#include "reader/generate.h"

namespace reader::test {
namespace {

PeerConfig find_config(const std::string& name) {
  for (const auto& c : default_peer_configs())
    if (c.name == name) return c;
  ADD_FAILURE() << "no peer configuration " << name;
  return {};
}

// The env of a short run on the default model, or nullopt (with the reason) when the
// programs `config` needs are not built here.
std::optional<PeerEnv> built_env(const PeerConfig& config, std::string& why) {
  PeerEnv env = default_peer_env();
  const auto missing = missing_peer_programs({config}, env);
  if (!missing.empty()) {
    why = missing.front().string() + " not built (scripts/build_peers.sh)";
    return std::nullopt;
  }
  env.model = default_model_path();
  env.threads = 2;
  env.ctx = 1024;
  env.work_dir =
      std::filesystem::temp_directory_path() / ("reader-test-peers-" + std::to_string(::getpid()));
  std::filesystem::create_directories(env.work_dir);
  return env;
}

TEST(PeersBadInput, MissingPeerProgramsNameTheBuildScript) {
  ::setenv("READER_PEERS_DIR", (missing_dir() / "peers").c_str(), 1);
  const CliResult r = run_cli("bench --peers --peer-configs llama:ar --prompts 1 -n 4");
  ::unsetenv("READER_PEERS_DIR");
  expect_clean_error(r, "scripts/build_peers.sh");
}

TEST(PeersBadInput, UnknownPeerConfiguration) {
  expect_clean_error(run_cli("bench --peers --peer-configs no-such-peer --prompts 1 -n 4"),
                     "'no-such-peer' matches no peer configuration");
}

TEST(PeersBadInput, PeersAndSweepExcludeEachOther) {
  expect_clean_error(run_cli("bench --peers --peers-sweep --prompts 1 -n 4"), "excludes");
}

TEST(PeersBadInput, NegativeCalibrationOffset) {
  expect_clean_error(run_cli("bench --peers-sweep --calibration-offset -1 --prompts 1 -n 4"),
                     "calibration-offset");
}

// One llama.cpp peer on one short prompt: sane counters, and its text is reader's AR text.
void expect_peer_matches_ar(const std::string& name, bool drafts_allowed) {
  const PeerConfig config = find_config(name);
  std::string why;
  const auto env = built_env(config, why);
  if (!env) GTEST_SKIP() << why;
  Model& model = shared_model("smollm2", 1, 1024);
  const std::string prompt = model.apply_chat_template(
      "Repeat exactly: the quick brown fox jumps over the lazy dog. the quick brown fox");
  const int n = 24;
  GenerationOptions opts;
  opts.max_tokens = n;
  const GenerationResult ar =
      generate_autoregressive(model, model.tokenize(prompt, true, true), opts);

  const PeerResult r = run_peer(config, *env, prompt, n);
  std::filesystem::remove_all(env->work_dir);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_GE(r.tokens, static_cast<int>(ar.tokens.size()));
  EXPECT_LE(r.tokens, n + 16);
  EXPECT_GT(r.tokens_per_s, 0);
  EXPECT_GE(r.mean_accepted, 1.0);
  EXPECT_LE(r.accepted, r.drafted);
  if (!drafts_allowed) {
    EXPECT_EQ(r.drafted, 0);
  }
  EXPECT_TRUE(peer_text_matches(r.text, ar.text)) << "peer: " << r.text << "\nar:   " << ar.text;
}

TEST(PeersModel, LlamaNoDraftRunEqualsReaderAr) { expect_peer_matches_ar("llama:ar", false); }

TEST(PeersModel, LlamaNgramSimpleEqualsReaderAr) {
  expect_peer_matches_ar("llama:ngram-simple n3 m8", true);
}

TEST(PeersModel, PythonPromptLookupEqualsReaderAr) {
  expect_peer_matches_ar("py:prompt-lookup ngram2 pred10", true);
}

// The size flags of every configuration, the sweep's included, exist in this build.
TEST(PeersModel, EveryConfigFlagIsKnownToTheBinary) {
  const PeerConfig ar = find_config("llama:ar");
  std::string why;
  const auto env = built_env(ar, why);
  if (!env) GTEST_SKIP() << why;
  const auto help = env->work_dir / "help.txt";
  const std::string cmd =
      (env->bin_dir / "llama-speculative-simple").string() + " --help >" + help.string() + " 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  const std::string text = slurp(help);
  std::filesystem::remove_all(env->work_dir);
  for (const auto& configs : {default_peer_configs(), sweep_peer_configs()})
    for (const auto& c : configs)
      for (const auto& a : c.args)
        if (a.starts_with("--") && c.program != PeerProgram::kPromptLookupPy) {
          EXPECT_NE(text.find(a), std::string::npos) << c.name << ": " << a;
        }
}

}  // namespace
}  // namespace reader::test
