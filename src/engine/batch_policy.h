// Batch policy: how much of each sequence's draft to verify when several share a decode.
//
// Theorem 1 for the whole batch: a step yields, per decoding sequence, 1 + the sum of alpha
// over its kept draft tokens, and costs what llama.cpp's decode of it costs. With one KV
// stream per sequence llama.cpp splits a batch into passes holding the same number of
// tokens of every sequence still in it (split_equal): sequences of lengths 1, 1, 1, 5 cost
// a pass of 4 x 1 tokens and another of 1 x 4, not one of 8. So uneven drafts pay a whole
// extra pass, and the policy weighs that: it tries every common cap on draft length and
// every prefix of the drafts' tokens sorted by alpha, and keeps the best. Passes are priced
// from the measured batch table (CostModel::pass); where a token costs as much as a step,
// the answer is to draft nothing: exactly batched AR. Prompt chunks in the same decode are
// paid for whatever is drafted, so there a draft must earn what its extra cost earns in the
// sequences' steps without them (session 32), not merely beat the whole step's average.
#pragma once

#include <functional>
#include <vector>

#include "reader/tree_policy.h"

namespace reader {

// Cost of one decode where sequence s sends lengths[s] tokens, split as llama.cpp splits
// a batch over per-sequence streams: one pass per distinct length.
// One pass's cost when `sequences` sequences send `each` tokens apiece (CostModel::pass).
using PassCost = std::function<double(int sequences, int each)>;
double split_step_cost(std::vector<int> lengths, const PassCost& cost);

// alphas[s]: alpha of decoding sequence s's drafted tokens along its chain (root excluded).
// prefill[k]: prompt tokens another sequence adds in the same decode. Returns the number of
// draft tokens each decoding sequence keeps (a prefix of its chain): without prompt chunks
// the candidate with the most expected tokens per cost; with them, the one with the most
// expected tokens less its extra cost at the best such ratio without them.
std::vector<int> trim_drafts(const std::vector<std::vector<double>>& alphas,
                             const std::vector<int>& prefill, const PassCost& cost);

}  // namespace reader
