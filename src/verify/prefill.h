// Prompt evaluation in n_batch-sized chunks, shared by whatever decodes a prefix first (the
// cost probe, bench --cost-curve, tests), so all start from identical logits.
#pragma once

#include "reader/model.h"

namespace reader {

// Decodes the prompt into sequence `seq` in n_batch-sized chunks; returns the logits
// row of the last prompt token (valid until the next decode).
const float* prefill(Model& model, TokenSpan prompt, int seq);

}  // namespace reader
