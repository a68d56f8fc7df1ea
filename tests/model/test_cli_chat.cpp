// `reader generate` treats the prompt as a user message by default (the model's chat
// template, as llama.cpp's CLI does); --raw keeps plain completion; a model without a
// template falls back to raw text without an error.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "model_fixture.h"

namespace reader::test {
namespace {

const std::string kLighthouse = "--prompt 'Tell a short story about a lighthouse.' -n 32 ";

bool has_text(const std::string& s) { return s.find_first_not_of(" \t\r\n") != std::string::npos; }

int prompt_tokens(const std::filesystem::path& stats) {
  return nlohmann::json::parse(slurp(stats)).at("prompt_tokens").get<int>();
}

// A copy of SmolLM2 whose GGUF key "tokenizer.chat_template" is renamed in place (same
// length, so the file stays valid): the same weights without a template.
std::filesystem::path model_without_template() {
  const auto path = scratch_path("notemplate.gguf");
  std::filesystem::copy_file(default_model_path(), path,
                             std::filesystem::copy_options::overwrite_existing);
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  std::string head(8 << 20, '\0');  // the metadata precedes the tensors
  f.read(head.data(), static_cast<std::streamsize>(head.size()));
  const std::string key = "tokenizer.chat_template";
  const size_t at = head.find(key);
  EXPECT_NE(at, std::string::npos) << "SmolLM2 should carry a chat template";
  if (at != std::string::npos) {
    f.clear();
    f.seekp(static_cast<std::streamoff>(at + key.size() - 1));
    f.put('X');
  }
  return path;
}

TEST(CliChat, PromptIsAUserMessageByDefault) {
  const auto chat_stats = scratch_path("chat.json"), raw_stats = scratch_path("raw.json");
  const CliResult chat = run_cli("generate " + kLighthouse + "--stats-json " + chat_stats.string());
  ASSERT_EQ(chat.exit_code, 0) << chat.err;
  EXPECT_TRUE(has_text(chat.out)) << "the instruct model answered nothing";
  // --chat is the default made explicit.
  const CliResult explicit_chat = run_cli("generate --chat " + kLighthouse);
  EXPECT_EQ(explicit_chat.exit_code, 0) << explicit_chat.err;
  EXPECT_EQ(explicit_chat.out, chat.out);
  // --raw: the old plain completion, the prompt text alone.
  const CliResult raw =
      run_cli("generate --raw " + kLighthouse + "--stats-json " + raw_stats.string());
  ASSERT_EQ(raw.exit_code, 0) << raw.err;
  EXPECT_LT(prompt_tokens(raw_stats), prompt_tokens(chat_stats));
  EXPECT_NE(raw.out, chat.out);
  std::filesystem::remove(chat_stats);
  std::filesystem::remove(raw_stats);
}

TEST(CliChat, ChatAndRawExcludeEachOther) {
  expect_usage_error("generate --chat --raw --prompt hi", "excludes");
}

TEST(CliChat, ModelWithoutTemplateFallsBackToRaw) {
  const auto bare = model_without_template();
  const std::string prompt = "--prompt 'The capital of France is' -n 12 ";
  const CliResult fallback = run_cli("generate --model " + bare.string() + " " + prompt);
  ASSERT_EQ(fallback.exit_code, 0) << fallback.err;
  EXPECT_NE(fallback.err.find("no chat template"), std::string::npos) << fallback.err;
  // Same weights, same raw prompt: the same text as --raw on the original model.
  const CliResult raw = run_cli("generate --raw " + prompt);
  ASSERT_EQ(raw.exit_code, 0) << raw.err;
  EXPECT_TRUE(has_text(raw.out));
  EXPECT_EQ(fallback.out, raw.out);
  // Asking for the template explicitly is an error there.
  expect_clean_error(run_cli("generate --chat --model " + bare.string() + " " + prompt),
                     "no chat template");
  std::filesystem::remove(bare);
}

}  // namespace
}  // namespace reader::test
