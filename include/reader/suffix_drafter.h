// SuffixDecoding (Oliaro et al., ArcticInference) as a Drafter: method "suffix".
//
// Two suffix trees, as ArcticInference's SuffixDecodingCache keeps them: a per-generation
// tree over the prompt and the tokens committed so far, and a global tree over every
// output of this drafter (earlier generations, and the current one as it grows). Each
// step both trees speculate from the last max_depth committed tokens; the draft with the
// higher score (sum of its tokens' estimated probabilities, from counts) is verified. The
// suffix tree itself is ArcticInference's C++ class, compiled from the pinned sdist that
// scripts/setup.sh fetches (never copied here); without it the method is unavailable.
#pragma once

#include <memory>

#include "reader/drafter_interface.h"

namespace reader {

// Defaults are ArcticInference 0.3.0's for its vLLM integration (arctic_inference/vllm/
// config.py, ArcticSpeculativeConfig; speculate() in suffix_decoding/cache.py).
struct SuffixParams {
  int max_depth = 64;            // tree depth and context suffix matched (suffix_cache_max_depth)
  int max_spec_tokens = 16;      // drafted tokens per step at most (num_speculative_tokens)
  float max_spec_factor = 1.0f;  // draft length <= factor * match length + offset
  float max_spec_offset = 0.0f;  // (suffix_max_spec_factor, suffix_max_spec_offset)
  float min_token_prob = 0.1f;   // a draft stops below this estimated probability
  // Drafts chains: a verified path is bitwise the autoregressive computation (README,
  // "Losslessness and rounding"); trees would need sibling cells in one batch.
  bool use_tree_spec = false;
  int max_cached_outputs = 100000;  // outputs in the global tree (FIFO); 0: no global tree
};

// Whether this build has ArcticInference's suffix tree (scripts/setup.sh provides it).
bool suffix_decoding_available();

// Throws std::invalid_argument when unavailable (saying how to get it) or on bad params.
// `max_branches`: leaves a drafted tree may have (the verifier's free sequence ids).
std::unique_ptr<Drafter> make_suffix_drafter(const SuffixParams& params, int max_branches);

}  // namespace reader
