#include "verify/prefill.h"

#include <algorithm>
#include <vector>

namespace reader {

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

Tokens probe_tokens(const Model& model, int count) {
  const int vocab_span = std::min(model.n_vocab() - 100, 20000);
  Tokens tokens;
  for (int i = 0; i < count; ++i) tokens.push_back(100 + (i * 7919) % vocab_span);
  return tokens;
}

std::vector<BatchToken> chain_batch(const Tokens& tokens, int prefix, int n,
                                    std::span<const int> seq) {
  std::vector<BatchToken> batch;
  for (int i = prefix; i < prefix + n; ++i)
    batch.push_back({tokens[static_cast<size_t>(i)], i, seq, true});
  return batch;
}

}  // namespace reader
