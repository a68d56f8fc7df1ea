// The prompt text a PromptItem stands for, for one model: its chat template over the item's
// earlier turns and final user message. Where an earlier assistant turn is the model's own
// (multi-turn sets), the model writes it first, so the last question follows its own answer.
#pragma once

#include <string>

#include "prompt_sets.h"
#include "reader/model.h"

namespace reader {

// Generates every model_writes turn greedily and autoregressively (at most max_tokens each,
// from the conversation before it), then templates the whole conversation, ending with the
// opening of the assistant's reply. A one-turn item gives apply_chat_template(item.user).
// Clears the model's KV cache when a turn is generated.
std::string render_chat_prompt(Model& model, const PromptItem& item, int max_tokens);

}  // namespace reader
