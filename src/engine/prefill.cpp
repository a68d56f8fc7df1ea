#include "engine/prefill.h"

#include <algorithm>
#include <vector>

#include "reader/generate.h"

namespace reader {

void check_prompt(const Model& model, TokenSpan prompt) {
  if (prompt.empty()) throw ModelError("the prompt is empty");
  if (static_cast<int>(prompt.size()) >= model.n_ctx())
    throw ModelError("the prompt is " + std::to_string(prompt.size()) +
                     " tokens; the context holds " + std::to_string(model.n_ctx()) +
                     " (raise --ctx or shorten the prompt)");
  for (Token t : prompt)
    if (t < 0 || t >= model.n_vocab())
      throw ModelError("prompt token id " + std::to_string(t) + " is outside the vocabulary");
}

const float* prefill(Model& model, TokenSpan prompt, int seq) {
  const int ids[] = {seq};
  std::vector<BatchToken> batch;
  const size_t chunk = static_cast<size_t>(model.n_batch());
  for (size_t start = 0; start < prompt.size(); start += chunk) {
    const size_t end = std::min(prompt.size(), start + chunk);
    batch.clear();
    for (size_t i = start; i < end; ++i)
      batch.push_back({prompt[i], static_cast<int>(i), ids, i + 1 == prompt.size()});
    model.decode(batch);
  }
  return model.logits(static_cast<int>(batch.size()) - 1);
}

}  // namespace reader
