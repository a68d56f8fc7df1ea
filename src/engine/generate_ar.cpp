// The autoregressive baseline: prefill, then one llama_decode per generated token.
#include <chrono>

#include "engine/output_stream.h"
#include "engine/prefill.h"
#include "reader/generate.h"

namespace reader {

GenerationResult generate_autoregressive(Model& model, TokenSpan prompt,
                                         const GenerationOptions& options,
                                         const TextCallback& on_text) {
  using Clock = std::chrono::steady_clock;
  check_prompt(model, prompt);
  model.kv_clear();
  Sampler sampler(options.sampling);
  OutputStream out(model, options, on_text, static_cast<int>(prompt.size()));

  const auto t0 = Clock::now();
  const float* logits = prefill(model, prompt, /*seq=*/0);
  const auto t1 = Clock::now();

  int pos = static_cast<int>(prompt.size());
  int steps = 0;
  const int seq0[] = {0};
  while (!out.done()) {
    if (options.on_logits) options.on_logits(out.size(), logits);
    const Token next = sampler.pick(logits, model.n_vocab(), static_cast<uint64_t>(out.size()));
    if (!out.push(next)) break;
    const BatchToken bt{next, pos++, seq0, true};
    model.decode({&bt, 1});
    logits = model.logits(0);
    ++steps;
  }
  const auto t2 = Clock::now();

  GenerationResult result = out.finish();
  result.stats.prompt_tokens = static_cast<int>(prompt.size());
  result.stats.prefill_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
  result.stats.decode_ms = std::chrono::duration<double, std::milli>(t2 - t1).count();
  result.stats.steps = steps;
  return result;
}

}  // namespace reader
