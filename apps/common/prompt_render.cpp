#include "prompt_render.h"

#include <vector>

#include "reader/generate.h"

namespace reader {

std::string render_chat_prompt(Model& model, const PromptItem& item, int max_tokens) {
  if (item.history.empty()) return model.apply_chat_template(item.user);
  std::vector<ChatMessage> messages;
  for (const Turn& t : item.history) {
    if (t.model_writes) {
      // Greedy whatever the run's sampling: the conversation must be the same for every
      // method and seed, so that their outputs stay comparable.
      GenerationOptions opts;
      opts.max_tokens = max_tokens;
      const Tokens prompt = model.tokenize(model.apply_chat_template(messages), true, true);
      messages.push_back({t.role, generate_autoregressive(model, prompt, opts).text});
    } else {
      messages.push_back({t.role, t.content});
    }
  }
  messages.push_back({"user", item.user});
  return model.apply_chat_template(messages);
}

}  // namespace reader
