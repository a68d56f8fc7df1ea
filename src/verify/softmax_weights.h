// Softmax weights of a sampled pick (sampling.cpp): exp((logit - max) / T) in double for every
// kept token, and their sums in blocks, which a 49k vocabulary needs fast. std::exp over the
// whole row took 0.34 ms a pick here, as much as 4% of a token's decode at T = 0.8.
//
// The exponential is our own (Cody-Waite reduction, a degree-13 polynomial by Estrin's scheme,
// 2^k from the bits): within 1e-15 of std::exp relatively, and the same bits on the AVX2 path
// as on the scalar one, so a machine's choice of path never changes a sampled text. Internal to
// src/verify.
#pragma once

#include <cstddef>
#include <vector>

namespace reader::detail {

// out[i] = exp(double((logits[i] - max_logit) * inv_t)) for i < n, the float product first as
// the policy defines it, or 0 where logits[i] < cutoff (or NaN): such a token is never drawn.
// Exponents below -700 are taken as -700 (weights ~1e-304). AVX2 where the CPU has it.
void softmax_weights(const float* logits, std::size_t n, float max_logit, float inv_t, float cutoff,
                     double* out);
// One token's weight, as softmax_weights gives it.
double softmax_weight(float logit, float max_logit, float inv_t, float cutoff);
// The scalar path alone (tests compare the two bit for bit).
void softmax_weights_scalar(const float* logits, std::size_t n, float max_logit, float inv_t,
                            float cutoff, double* out);

// Weights are summed in blocks of this many, each block in index order; a draw walks the block
// sums, then one block. Independent blocks let the sums run side by side (a sum in index order
// is a chain of 49k dependent additions, 65 us here).
inline constexpr std::size_t kWeightBlock = 64;

// sums[b] = sum of w[b * kWeightBlock .. (b + 1) * kWeightBlock) in index order (the last
// block may be short); returns their sum in block order: the total the draw scales by.
double block_sums(const double* w, std::size_t n, std::vector<double>& sums);

// The first index i of positive weight whose running sum passes `target` (< total): the block
// sums are added in order until one passes it, then that block's weights one by one from
// there; the last index of positive weight where rounding lets every partial sum miss it.
std::size_t weighted_index(const double* w, std::size_t n, const std::vector<double>& sums,
                           double target);

}  // namespace reader::detail
