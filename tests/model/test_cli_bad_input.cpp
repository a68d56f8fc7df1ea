// Bad input to `reader generate`: a one-line error naming the problem, a non-zero exit,
// never a crash or a hang. Each case runs on both test models where a model is involved.
#include <gtest/gtest.h>

#include <fstream>

#include "cli_runner.h"
#include "llama.h"
#include "model_fixture.h"
#include "reader/profile.h"

namespace reader::test {
namespace {

class BadInput : public ::testing::TestWithParam<std::string> {
 protected:
  std::string model_flag() const { return "--model " + test_model_path(GetParam()).string(); }
};

TEST(BadInputNoModel, MissingModelFile) {
  expect_clean_error(
      run_cli("generate --model " + (missing_dir() / "model.gguf").string() + " --prompt hi"),
      "model file not found");
}

TEST(BadInputNoModel, NotAGgufFile) {
  const auto p = scratch_file("notgguf.gguf", "this is not a model at all");
  expect_clean_error(run_cli("generate --model " + p.string() + " --prompt hi"), "not a GGUF");
  std::filesystem::remove(p);
}

TEST(BadInputNoModel, CorruptGgufFile) {
  std::string junk = "GGUF";
  junk += std::string("\x03\x00\x00\x00", 4);
  for (int i = 0; i < 4096; ++i) junk.push_back(static_cast<char>((i * 7919) & 0xff));
  const auto p = scratch_file("corrupt.gguf", junk);
  expect_clean_error(run_cli("generate --model " + p.string() + " --prompt hi"),
                     "failed to load model");
  std::filesystem::remove(p);
}

TEST(BadInputNoModel, TruncatedRealModel) {
  std::ifstream in(default_model_path(), std::ios::binary);
  std::string head(1 << 20, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  const auto p = scratch_file("truncated.gguf", head);
  expect_clean_error(run_cli("generate --model " + p.string() + " --prompt hi"),
                     "failed to load model");
  std::filesystem::remove(p);
}

TEST(BadInputNoModel, UnknownSubcommandsAreNamed) {
  expect_usage_error("tnue", "unknown subcommand 'tnue' (known: generate,");
  expect_usage_error("datastore biuld",
                     "unknown subcommand 'biuld' (known: build, generate, info)");
  const CliResult version = run_cli("--version");
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_EQ(version.out.rfind("reader ", 0), 0u) << version.out;
}

// Refused before the minutes of cost measurement it would otherwise waste.
TEST(BadInputNoModel, TuneChecksItsPromptSetsFirst) {
  expect_clean_error(
      run_cli("tune --prompts no_such_set --out " + scratch_path("never.json").string()),
      "unknown prompt set 'no_such_set'");
}

TEST(BadInputNoModel, EndlessPromptFileIsRefused) {
  expect_clean_error(run_cli("generate -n 2 --prompt-file /dev/zero"), "larger than 256 MiB");
}

TEST(BadInputNoModel, UnknownFlag) {
  expect_usage_error("generate --prompt hi --no-such-flag", "no-such-flag");
}

// Flags the command would ignore in that combination are refused, not half obeyed.
TEST(BadInputNoModel, FlagsThatExcludeEachOther) {
  expect_usage_error("repetition --set rag --data x.jsonl", "--set excludes --data");
  expect_usage_error("repetition --set rag --prompt-field q", "--set excludes --prompt-field");
  expect_usage_error("datastore build --lines --field text -i x.txt", "--field excludes --lines");
  expect_usage_error("generate --prompt hi --flash-attn --no-flash-attn",
                     "--flash-attn excludes --no-flash-attn");
}

TEST(BadInputNoModel, GraphCacheOutOfRange) {
  expect_usage_error("generate --prompt hi --graph-cache -1", "--graph-cache");
  expect_usage_error("generate --prompt hi --graph-cache 65", "--graph-cache");
}

TEST(BadInputNoModel, GpuLayersOutOfRangeOrWithoutAGpu) {
  expect_usage_error("generate --prompt hi --gpu-layers -2", "--gpu-layers");
  expect_usage_error("generate --prompt hi --gpu-layers x", "--gpu-layers");
  if (!llama_supports_gpu_offload())  // the CPU build CI runs: offloading is refused, not ignored
    expect_clean_error(run_cli("generate --prompt hi --gpu-layers 4"), "no GPU to offload");
}

TEST(BadInputNoModel, QuantizedKvCacheWithoutFlashAttention) {
  // Flash attention is on by default with AVX-512: turn it off to reach the check everywhere.
  expect_clean_error(run_cli("generate --prompt hi --kv-type q8_0 --no-flash-attn"),
                     "needs flash attention");
}

TEST(BadInputNoModel, QuantizeBadInputOrOutput) {
  expect_clean_error(
      run_cli("quantize -m " + (missing_dir() / "m.gguf").string() + " -o /tmp/x.gguf"),
      "model file not found");
  expect_clean_error(run_cli("quantize -m " + default_model_path().string() + " -o " +
                             (missing_dir() / "x.gguf").string()),
                     "output directory does not exist");
  expect_usage_error("quantize -m " + default_model_path().string() + " -o /tmp/x.gguf --type q2_k",
                     "type");
  // The output is first written as OUTPUT.part: that must not be the input.
  const auto part = scratch_file("m.gguf.part", "GGUF and then some bytes");
  std::filesystem::path out = part;
  out.replace_extension();  // m.gguf
  expect_clean_error(run_cli("quantize -m " + part.string() + " -o " + out.string()),
                     "is the input");
  EXPECT_EQ(slurp(part), "GGUF and then some bytes");
  std::filesystem::remove(part);
}

TEST(BadInputNoModel, MaxTokensZeroOrNegative) {
  expect_clean_error(run_cli("generate --prompt hi --max-tokens 0"), "max-tokens");
  expect_clean_error(run_cli("generate --prompt hi --max-tokens -3"), "max-tokens");
}

TEST(BadInputNoModel, NegativeTemperature) {
  expect_clean_error(run_cli("generate --prompt hi --temp -0.5"), "temp");
}

TEST(BadInputNoModel, UnreadablePromptFile) {
  expect_clean_error(run_cli("generate --prompt-file " + (missing_dir() / "prompt.txt").string()),
                     "cannot read file");
  expect_clean_error(run_cli("generate --prompt-file /tmp"), "directory");
}

TEST(BadInputNoModel, NonUtf8Prompt) {
  const auto p = scratch_file("latin1.txt", "caf\xe9 au lait \xff\xfe");
  expect_clean_error(run_cli("generate --prompt-file " + p.string()), "not valid UTF-8");
  expect_clean_error(run_cli("generate --prompt \"$(printf 'caf\\351')\""), "not valid UTF-8");
  std::filesystem::remove(p);
}

TEST(BadInputNoModel, EmptyStandardInputPrompt) {
  expect_clean_error(run_cli("generate -n 2 --prompt-file -"), "the prompt is empty");
}

// "-f -" reads the prompt from standard input: the same text as --prompt gives.
TEST(Cli, PromptFromStandardInput) {
  const std::string text = "Name three colours.";
  const auto p = scratch_file("stdin-prompt.txt", text);
  const CliResult given = run_cli("generate --method ar -n 8 --prompt '" + text + "'");
  const CliResult piped = run_cli("generate --method ar -n 8 -f -", p);
  ASSERT_EQ(given.exit_code, 0) << given.err;
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_FALSE(given.out.empty());
  EXPECT_EQ(piped.out, given.out);
  std::filesystem::remove(p);
}

// READER with its steps priced by the profile alone (--fixed-cost) or by what they cost now
// (the default) writes the same text as AR: the pricing chooses drafts, never tokens.
TEST(Cli, FixedCostChangesNoText) {
  const std::string prompt = "--prompt 'Repeat this sentence twice: the tide comes in at dusk.'";
  const CliResult ar = run_cli("generate --method ar -n 24 " + prompt);
  const CliResult fixed = run_cli("generate --method reader --fixed-cost -n 24 " + prompt);
  const CliResult priced = run_cli("generate --method reader -n 24 " + prompt);
  ASSERT_EQ(ar.exit_code, 0) << ar.err;
  ASSERT_EQ(fixed.exit_code, 0) << fixed.err;
  ASSERT_EQ(priced.exit_code, 0) << priced.err;
  EXPECT_EQ(fixed.out, ar.out);
  EXPECT_EQ(priced.out, ar.out);
}

TEST(BadInputNoModel, BothOrNeitherPrompt) {
  expect_clean_error(run_cli("generate"), "--prompt");
  expect_clean_error(run_cli("generate --prompt a --prompt-file b"), "exactly one");
}

TEST_P(BadInput, PromptLongerThanContext) {
  std::string long_prompt;
  for (int i = 0; i < 200; ++i) long_prompt += "lorem ipsum dolor sit amet ";
  const auto p = scratch_file("long.txt", long_prompt);
  expect_clean_error(run_cli("generate " + model_flag() + " --ctx 128 --prompt-file " + p.string()),
                     "no room to generate");
  // bench checks every prompt before it runs any: the error names the set and the prompt.
  const auto prompts = scratch_file("long.jsonl",
                                    "{\"set\": \"mine\", \"id\": \"short\", \"prompt\": \"hi\"}\n"
                                    "{\"set\": \"mine\", \"id\": \"long\", \"prompt\": \"" +
                                        long_prompt + "\"}\n");
  const std::filesystem::path out = scratch_path("bench-long-prompt");
  expect_clean_error(run_cli("bench " + model_flag() + " --ctx 128 --prompts-file " +
                             prompts.string() + " -n 2 -o " + out.string()),
                     "mine prompt 'long'");
  EXPECT_FALSE(std::filesystem::exists(out / "bench.json"));
  std::filesystem::remove(prompts);
  std::filesystem::remove(p);
}

INSTANTIATE_TEST_SUITE_P(Models, BadInput, ::testing::ValuesIn(test_model_names()));

// A prompt longer than --ctx but within the 256 cells llama.cpp rounds the context up to:
// llama.cpp caps a decode at the --ctx asked for, which once aborted (GGML_ASSERT).
TEST(BadInputNoModel, PromptBeyondSmallCtxDecodesInChunks) {
  std::string words;
  for (int i = 0; i < 150; ++i) words += "word ";
  const auto p = scratch_file("p150.txt", words);
  const CliResult r = run_cli("generate --raw --ctx 64 -n 4 --prompt-file " + p.string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::filesystem::remove(p);
}

TEST(BadInputNoModel, NotANumberSampling) {
  expect_clean_error(run_cli("generate --prompt hi -n 2 --temp nan"), "temperature");
  expect_clean_error(run_cli("generate --prompt hi -n 2 --top-p nan"), "top_p");
}

// Outputs are checked before any work, and never written over an input.
TEST(BadInputNoModel, OutputPathsCheckedFirst) {
  const auto corpus = scratch_file("corpus.txt", "one document\nanother document\n");
  const CliResult over =
      run_cli("datastore build --lines -i " + corpus.string() + " -o " + corpus.string());
  expect_clean_error(over, "refusing to overwrite");
  EXPECT_EQ(slurp(corpus), "one document\nanother document\n");
  const auto dir = std::filesystem::temp_directory_path();
  expect_clean_error(run_cli("generate --prompt hi -n 2 --stats-json " + dir.string()),
                     "is a directory");
  expect_clean_error(
      run_cli("generate --prompt hi -n 2 --stats-json " + (missing_dir() / "s.json").string()),
      "does not exist");
  // Nor over a file another flag reads: the profile, the tree shape, the data.
  const auto profile = scratch_file("profile.json", "{}");
  const auto tree = scratch_file("tree.json", "{}");
  expect_clean_error(run_cli("generate --prompt hi -n 2 --profile " + profile.string() +
                             " --stats-json " + profile.string()),
                     "refusing to overwrite");
  expect_clean_error(run_cli("generate --prompt hi -n 2 --tree " + tree.string() +
                             " --stats-json " + tree.string()),
                     "refusing to overwrite");
  expect_clean_error(
      run_cli("serve --port 0 --profile " + profile.string() + " --port-file " + profile.string()),
      "refusing to overwrite");
  expect_clean_error(run_cli("repetition --data " + corpus.string() +
                             " --prompt-field p --response-field r --json " + corpus.string()),
                     "refusing to overwrite");
  EXPECT_EQ(slurp(profile), "{}");
  EXPECT_EQ(slurp(tree), "{}");
  std::filesystem::remove(profile);
  std::filesystem::remove(tree);
  expect_clean_error(run_cli("serve --port 0 --queue 100000"), "--queue must be in 0..4096");
  expect_clean_error(run_cli("bench --sets rag,rag --prompts 1 -n 2"), "twice");
  expect_clean_error(run_cli("bench --batch 2 --bound --prompts 1 -n 2"), "drop --bound");
  expect_clean_error(run_cli("bench --batch 2 --trace --prompts 1 -n 2"), "drop --batch");
  expect_clean_error(run_cli("bench --cost-curve --trace"), "drop --cost-curve");
  EXPECT_EQ(slurp(corpus), "one document\nanother document\n");
  std::filesystem::remove(corpus);
}

// An output that cannot be written is an error, not a silent success with the text lost.
TEST(BadInputNoModel, FailedWritesAreErrors) {
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full here";
  // The run's summary line comes first, then the error.
  const CliResult stats = run_cli("generate --prompt hi -n 2 --stats-json /dev/full");
  EXPECT_EQ(stats.exit_code, 1) << stats.err;
  EXPECT_NE(stats.err.find("\nreader: error: cannot write /dev/full"), std::string::npos)
      << stats.err;
  // stdout itself: run_cli redirects it to a file, so redirect here instead.
  const auto err = scratch_path("full.err");
  const int status =
      std::system((std::string(READER_CLI_PATH) +
                   " generate --prompt hi -n 2 </dev/null >/dev/full 2>" + err.string())
                      .c_str());
  CliResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.err = slurp(err);
  std::filesystem::remove(err);
  expect_clean_error(r, "cannot write the output");
}

}  // namespace
}  // namespace reader::test

namespace reader::test {
namespace {

// --profile: missing, corrupt, or tuned for another model's vocabulary; and reader tune's
// own output checks.
TEST(BadProfile, MissingCorruptAndForeignProfiles) {
  const std::string gen = "generate --prompt hi -n 4 --method reader --profile ";
  expect_clean_error(run_cli(gen + (missing_dir() / "p.profile.json").string()), "cannot read");
  const auto corrupt = scratch_file("corrupt.profile.json", "{\"format\": \"reader-profile\", ");
  expect_clean_error(run_cli(gen + corrupt.string()), "corrupt");
  const auto foreign = scratch_file("foreign.profile.json", R"({"format": "reader-profile",
    "version": 2, "model": "some other model", "tokenizer_fingerprint": "0000000000000001",
    "machine": "x", "threads": 2, "cost": [{"context": 256, "curve": [[1, 1.0], [2, 1.2]]}],
    "acceptance": []})");
  expect_clean_error(run_cli(gen + foreign.string()), "tuned for another model");
  expect_clean_error(run_cli("tune --cost-only --out " + (missing_dir() / "p.json").string()),
                     "output directory does not exist");
  expect_clean_error(run_cli("tune --refiner-only --out " + scratch_path("none.json").string()),
                     "--refiner-only: no profile at");
  expect_clean_error(run_cli("tune --refiner-only --out " + foreign.string()),
                     "tuned for another model");
  std::filesystem::remove(corrupt);
  std::filesystem::remove(foreign);
}

// tune --if-stale leaves a current profile alone and renews one whose cost was estimated by
// an older method (no cost_method recorded): what setup relies on after an upgrade.
TEST(TuneIfStale, RenewsACostEstimatedAnotherWay) {
  const auto out = scratch_path("stale.profile.json");
  const std::string tune =
      "tune --cost-only --if-stale --contexts 64 --repeats 1 --out " + out.string();
  ASSERT_EQ(run_cli(tune).exit_code, 0);  // missing: measured
  const CliResult current = run_cli(tune);
  EXPECT_EQ(current.exit_code, 0);
  EXPECT_NE(current.out.find("is current"), std::string::npos) << current.out;

  std::string text = slurp(out);
  const size_t key = text.find("\"cost_method\"");
  ASSERT_NE(key, std::string::npos);
  text.erase(key, text.find('\n', key) + 1 - key);  // the line "cost_method": "...",
  std::ofstream(out, std::ios::binary) << text;
  const CliResult renewed = run_cli(tune);
  EXPECT_EQ(renewed.exit_code, 0) << renewed.err;
  EXPECT_EQ(renewed.out.find("is current"), std::string::npos) << renewed.out;
  EXPECT_NE(slurp(out).find(std::string("\"cost_method\": \"") + kCostMethod), std::string::npos);
  std::filesystem::remove(out);
}

// A profile calibrated with one datastore, run with another (here none): the run goes on
// and says once that retrieval's priors were calibrated elsewhere; AR, which drafts
// nothing, says nothing.
TEST(ProfileDatastore, WarnsWhenTheRunUsesAnother) {
  const std::string fixture = (std::filesystem::path(READER_SOURCE_DIR) / "docs" / "results" /
                               "tune" / "SmolLM2-135M-Instruct.Q8_0.profile.json")
                                  .string();
  const std::string gen = "generate --prompt hi -n 4 --datastore none --profile " + fixture;
  const CliResult reader = run_cli(gen + " --method reader");
  EXPECT_EQ(reader.exit_code, 0) << reader.err;
  EXPECT_NE(reader.err.find("the profile was calibrated with datastore '"), std::string::npos)
      << reader.err;
  EXPECT_NE(reader.err.find("this run uses 'none'"), std::string::npos) << reader.err;
  EXPECT_EQ(reader.err.find("calibrated with datastore"),
            reader.err.rfind("calibrated with datastore"))  // once
      << reader.err;
  const CliResult ar = run_cli(gen + " --method ar");
  EXPECT_EQ(ar.exit_code, 0) << ar.err;
  EXPECT_EQ(ar.err.find("calibrated with datastore"), std::string::npos) << ar.err;
}

}  // namespace
}  // namespace reader::test
