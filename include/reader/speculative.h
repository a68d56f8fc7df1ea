// Speculative generation: draft a tree, verify it in one pass, commit the longest
// verified path; the output equals generate_autoregressive()'s for the same options.
#pragma once

#include "reader/drafter_interface.h"
#include "reader/generate.h"

namespace reader {

GenerationResult generate_speculative(Model& model, TokenSpan prompt,
                                      const GenerationOptions& options, Drafter& drafter,
                                      const TextCallback& on_text = {});

}  // namespace reader
