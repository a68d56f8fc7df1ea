// Batch policy: how much of each sequence's draft to verify when several share a decode.
//
// Theorem 1 for the whole batch: a step yields, per decoding sequence, 1 + the sum of alpha
// over its kept draft tokens, and costs what llama.cpp's decode of it costs. With one KV
// stream per sequence llama.cpp splits a batch into passes holding the same number of
// tokens of every sequence still in it, consecutive ids only (split_equal): sequences of
// lengths 1, 1, 1, 5 cost a pass of 4 x 1 tokens and another of 1 x 4, not one of 8, and 5, 1,
// 1, 5 three passes. So uneven drafts pay whole extra passes, and the policy weighs that: it tries
// every common cap on draft length and every prefix of the drafts' tokens sorted by alpha, and
// keeps the best. Passes are priced from the measured batch table (CostModel::pass); where a token
// costs as much as a step, the answer is to draft nothing: exactly batched AR. Prompt chunks in the
// same decode are paid for whatever is drafted, so there a draft must earn what its extra cost
// earns in the sequences' steps without them (session 32), not merely beat the whole step's
// average.
#pragma once

#include <functional>
#include <vector>

#include "reader/tree_policy.h"

namespace reader {

// One pass's cost when `sequences` sequences send `each` tokens apiece (CostModel::pass).
using PassCost = std::function<double(int sequences, int each)>;

// Cost of one decode where the i-th sequence id from the lowest sends lengths[i] tokens (0: an
// id not in the decode), split as llama.cpp splits a batch in id order over per-sequence
// streams: each pass takes the run of consecutive ids from the lowest one with tokens left, as
// many tokens from each as the one with the fewest left. So 3, 1, 3 costs passes of 3 x 1,
// 1 x 2 and 1 x 2: an id with nothing left splits a run, as a free id does.
// No cap per pass: the engine keeps a decode within n_batch tokens, and the model sets
// n_ubatch = n_batch (model.cpp), so llama.cpp's ubatch size never splits a pass further.
double split_step_cost(std::vector<int> lengths, const PassCost& cost);

// One sequence id of a decode, in id order from the lowest running one.
struct Lane {
  int draft = -1;         // a decoding sequence: its index in trim_drafts' alphas; else -1
  int prompt_tokens = 0;  // a joining sequence: its prompt chunk (0 with no draft: a free id)
};

// alphas[d]: alpha of decoding sequence d's drafted tokens along its chain (root excluded);
// lanes: every id of the decode. Returns the number of draft tokens each decoding sequence
// keeps (a prefix of its chain): without prompt chunks the candidate with the most expected
// tokens per cost; with them, the one with the most expected tokens less its extra cost at
// the best such ratio without them.
std::vector<int> trim_drafts(const std::vector<std::vector<double>>& alphas,
                             const std::vector<Lane>& lanes, const PassCost& cost);

}  // namespace reader
