// Prompt evaluation in n_batch-sized chunks, shared by whatever decodes a prefix first (the
// cost probe, bench --cost-curve, tests), so all start from identical logits; and the chain
// of tokens those probes then time on top of the prefix.
#pragma once

#include <span>
#include <vector>

#include "reader/model.h"

namespace reader {

// Decodes the prompt into sequence `seq` in n_batch-sized chunks; returns the logits
// row of the last prompt token (valid until the next decode).
const float* prefill(Model& model, TokenSpan prompt, int seq);

// `count` ordinary-looking token ids, not repeated: what timing probes decode, since a cost
// must not depend on what is decoded.
Tokens probe_tokens(const Model& model, int count);

// Tokens prefix .. prefix + n - 1 of `tokens` as one batch in sequences `seq`, logits on:
// what verifying an n-token chain after `prefix` cached tokens decodes.
std::vector<BatchToken> chain_batch(const Tokens& tokens, int prefix, int n,
                                    std::span<const int> seq);

}  // namespace reader
