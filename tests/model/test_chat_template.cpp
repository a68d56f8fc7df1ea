// Multi-message chat templates and multi-turn prompts on the real models.
#include <gtest/gtest.h>

#include <vector>

#include "model_fixture.h"
#include "prompt_render.h"
#include "reader/generate.h"

namespace reader::test {
namespace {

TEST(ChatTemplateTest, ConversationKeepsEveryTurnInOrder) {
  Model& m = shared_model("smollm2");
  const ChatMessage one[] = {{"user", "What is 2+2?"}};
  EXPECT_EQ(m.apply_chat_template(one), m.apply_chat_template("What is 2+2?"));
  const std::vector<ChatMessage> conv = {{"system", "Be brief."},
                                         {"user", "What is 2+2?"},
                                         {"assistant", "It is 4."},
                                         {"user", "And 3+3?"}};
  const std::string text = m.apply_chat_template(conv);
  size_t at = 0;
  for (const ChatMessage& msg : conv) {  // each turn appears after the previous one
    const size_t pos = text.find(msg.content, at);
    ASSERT_NE(pos, std::string::npos) << msg.content << " in " << text;
    EXPECT_NE(text.rfind(msg.role, pos), std::string::npos);
    at = pos + msg.content.size();
  }
  // ChatML: the prompt ends by opening the assistant's turn; without it, after the last turn.
  EXPECT_TRUE(text.ends_with("<|im_start|>assistant\n")) << text;
  EXPECT_TRUE(m.apply_chat_template(conv, false).ends_with("And 3+3?<|im_end|>\n"));
  EXPECT_THROW(m.apply_chat_template(std::vector<ChatMessage>{}), ModelError);
}

TEST(ChatTemplateTest, MultiTurnPromptFollowsTheModelsOwnFirstAnswer) {
  Model& m = shared_model("smollm2");
  PromptItem item;
  item.history = {{"user", "Name a colour.", false}, {"assistant", "", true}};
  item.user = "Now name another one.";
  const std::string prompt = render_chat_prompt(m, item, 16);
  // The first answer is the model's greedy reply to the first turn.
  GenerationOptions opts;
  opts.max_tokens = 16;
  const std::string answer =
      generate_autoregressive(m, m.tokenize(m.apply_chat_template("Name a colour."), true, true),
                              opts)
          .text;
  ASSERT_FALSE(answer.empty());
  const std::vector<ChatMessage> conv = {
      {"user", "Name a colour."}, {"assistant", answer}, {"user", "Now name another one."}};
  EXPECT_EQ(prompt, m.apply_chat_template(conv));
  // A one-turn item is the plain one-turn template.
  PromptItem single;
  single.user = "Hi";
  EXPECT_EQ(render_chat_prompt(m, single, 16), m.apply_chat_template("Hi"));
}

// The server sizes its default --parallel by this; llama.cpp itself reports 1440 MiB for
// SmolLM2 at 32 x 2048 cells and 192 + 960 MiB for Gemma 3 (f16), i.e. these per cell.
TEST(ModelMetadataTest, KvBytesPerCellMatchesLlamaCppsAllocation) {
  ModelOptions o;
  o.vocab_only = true;  // what the server loads to decide, before the real load
  o.path = default_model_path();
  EXPECT_EQ(Model::load(o)->kv_bytes_per_cell(), 23040u);  // 30 layers x 3 heads x 2 x 64 x 2 B
  o.path = gemma3_model_path();
  EXPECT_EQ(Model::load(o)->kv_bytes_per_cell(), 18432u);  // 18 layers x 1 head x 2 x 256 x 2 B
  o.kv_type = "q8_0";
  EXPECT_EQ(Model::load(o)->kv_bytes_per_cell(), 9792u);
}

}  // namespace
}  // namespace reader::test
