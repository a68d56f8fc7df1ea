// Generation of one prompt alone: the engine's B = 1 case (engine.h), so the single-request
// paths and the batched server run the same loop.
#include "reader/engine.h"
#include "reader/speculative.h"

namespace reader {

namespace {
GenerationResult generate_alone(Model& model, TokenSpan prompt, const GenerationOptions& options,
                                Drafter* drafter, const TextCallback& on_text) {
  EngineOptions eo;  // Engine::submit checks the prompt and the sampling parameters
  eo.max_sequences = 1;
  // The cells stay after the run (the next run's Engine clears them): callers and tests can
  // inspect what was committed.
  eo.reuse_prefix = true;
  Engine engine(model, eo);
  Request request;
  request.prompt.assign(prompt.begin(), prompt.end());
  request.options = options;
  request.on_text = on_text;
  request.drafter = drafter;
  GenerationResult result;
  request.on_done = [&](GenerationResult r) { result = std::move(r); };
  engine.submit(std::move(request));
  engine.run_until_idle();
  return result;
}
}  // namespace

GenerationResult generate_speculative(Model& model, TokenSpan prompt,
                                      const GenerationOptions& options, Drafter& drafter,
                                      const TextCallback& on_text) {
  return generate_alone(model, prompt, options, &drafter, on_text);
}

GenerationResult generate_autoregressive(Model& model, TokenSpan prompt,
                                         const GenerationOptions& options,
                                         const TextCallback& on_text) {
  return generate_alone(model, prompt, options, nullptr, on_text);
}

}  // namespace reader
