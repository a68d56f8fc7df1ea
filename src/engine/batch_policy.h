// Batch policy: how much of each sequence's draft to verify when several share a decode.
//
// Theorem 1 for the whole batch: a step that verifies n tokens in total costs c(n), and
// yields, per decoding sequence, 1 + the sum of alpha over its kept draft tokens. Alpha
// never grows along a chain, so the best choice for any total keeps the largest alphas,
// each a prefix of its chain; the best total is then one pass over them sorted. At high
// load c(n) is near linear, a drafted token must be almost certain to pay, and the policy
// drafts nothing: the engine is exactly batched AR.
#pragma once

#include <vector>

#include "reader/tree_policy.h"

namespace reader {

// alphas[s]: alpha of sequence s's drafted tokens along its chain (root excluded).
// fixed_tokens: other tokens in the same decode (prompt chunks). Returns the number of
// draft tokens each sequence keeps (a prefix of its chain).
std::vector<int> trim_drafts(const std::vector<std::vector<double>>& alphas, int fixed_tokens,
                             const CostCurve& cost);

}  // namespace reader
