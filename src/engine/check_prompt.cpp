// A prompt every engine accepts: non-empty, shorter than the context, known token ids.
#include <string>

#include "reader/generate.h"

namespace reader {

void check_prompt(const Model& model, TokenSpan prompt) {
  if (prompt.empty()) throw ModelError("the prompt is empty");
  if (static_cast<int>(prompt.size()) >= model.n_ctx())
    throw ModelError("the prompt is " + std::to_string(prompt.size()) +
                     " tokens and leaves no room to generate in a context of " +
                     std::to_string(model.n_ctx()) + " (raise --ctx or shorten the prompt)");
  for (Token t : prompt)
    if (t < 0 || t >= model.n_vocab())
      throw ModelError("prompt token id " + std::to_string(t) + " is outside the vocabulary");
}

}  // namespace reader
