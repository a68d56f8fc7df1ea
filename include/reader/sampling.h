// Sampling: the decoding policy F(P, U) shared by autoregressive and speculative decoding.
//
// Losslessness under sampling rests on coupling (paper, appendix "Lossless decoding"):
// the token at output position t is F(logits_t, U_t), where U_t depends only on
// (seed, t). Any engine that calls pick() with the same logits and position therefore
// emits the same token, however many positions it verifies per forward pass.
#pragma once

#include <cstdint>
#include <vector>

#include "reader/tokens.h"

namespace reader {

struct SamplingParams {
  float temperature = 0.0f;  // 0: greedy (argmax, lowest id wins ties)
  int top_k = 0;             // keep the k most likely tokens; 0: off
  float top_p = 1.0f;        // keep the smallest set with this much mass; 1: off
  std::uint64_t seed = 0;    // keys the per-position uniforms
  // Temperatures this small are greedy in effect (and 1/t would overflow).
  bool greedy() const { return temperature < 1e-6f; }
};

// Throws std::invalid_argument, one line naming the value, unless the parameters make a
// policy: a finite temperature >= 0, top_k >= 0, top_p in (0, 1].
void check_sampling(const SamplingParams& params);

// U_t in [0, 1): a counter-based generator, so position t's draw does not depend on how
// many draws came before it.
double position_uniform(std::uint64_t seed, std::uint64_t position);

// Applies the policy to a logits row. Not thread-safe (keeps scratch buffers).
class Sampler {
 public:
  explicit Sampler(SamplingParams params) : params_(params) {}
  const SamplingParams& params() const { return params_; }
  // The token the policy emits at output position `position` (0 = first generated token).
  Token pick(const float* logits, int n_vocab, std::uint64_t position);

 private:
  SamplingParams params_;
  std::vector<std::pair<float, Token>> scratch_;  // (logit, token) candidates
  std::vector<float> kept_logits_;                // their logits, contiguous for the weights
  std::vector<double> probs_;                     // softmax weights of the kept candidates
  std::vector<double> block_sums_;                // probs_ summed in blocks (softmax_weights.h)
};

// Argmax with the lowest token id winning ties (the greedy policy).
Token argmax(const float* logits, int n_vocab);

// The k most likely tokens of a row, best first, in one pass (k is small: drafters use it).
// `best` is scratch owned by the caller so the hot loop does not allocate.
void top_k_tokens(const float* logits, int n_vocab, int k,
                  std::vector<std::pair<float, Token>>& best);

// Each of top_k_tokens' candidates' softmax share among the candidates alone (0 for padding,
// all 0 for a row of -inf or NaN): a drafted token's confidence without a pass of exp() over
// the vocabulary. `shares` is the caller's scratch, resized to best.size().
void candidate_shares(const std::vector<std::pair<float, Token>>& best,
                      std::vector<double>& shares);

}  // namespace reader
