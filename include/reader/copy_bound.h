// The copy-oracle bound (issue 8, section 6): how much faster than autoregressive decoding a
// drafter that only COPIES could produce a known output, under a given verification cost
// curve. At each step an oracle drafts exactly the next d tokens of the output, for any d up
// to the longest run starting there that occurs in the prompt, the output so far, or the
// datastore; a dynamic program picks every step's d to minimise the total cost. No drafter
// whose drafts are copies, verified one path per step, does better under the same curve.
// Model-free: it works on the token ids of a recorded (greedy) output.
#pragma once

#include <span>
#include <vector>

#include "reader/repetition.h"
#include "reader/tokens.h"
#include "reader/tree_policy.h"

namespace reader {

// For every output position i, the length of the longest run output[i..i+k) that occurs
// inside prompt ++ output[0..i) (the text committed before step i: an occurrence may straddle
// the prompt/output boundary but never run past position i), or, with `external`, the
// longest prefix of output[i..) the external text (the datastore) holds, whichever is longer.
// O(|output| x (|prompt| + |output|)) plus one external query per position.
std::vector<int> copyable_run_lengths(TokenSpan prompt, TokenSpan output,
                                      const ExternalMatcher* external = nullptr);

// The oracle's cheapest plan for one output and what it costs.
struct CopyBound {
  int tokens = 0;           // tokens committed after prefill (output size - 1)
  double cost = 0;          // total verification cost, in units of c(1)-normalised decodes
  double ar_cost = 0;       // what autoregressive decoding pays for the same tokens: tokens x c(1)
  std::vector<int> drafts;  // drafted tokens per step, in order (a step commits drafts + 1)
  double speedup() const { return cost > 0 ? ar_cost / cost : 1.0; }
};

// The plan of least total cost: prefill emits output[0]; a step at position j (1 <= j < n)
// drafts d <= min(runs[j], max_step - 1, n - 1 - j) tokens, commits output[j..j+d] and costs
// cost(d + 1). `runs` comes from copyable_run_lengths (one entry per output token).
// max_step is the most tokens one verification carries; 0: the curve's largest measured n
// (the curve is only extrapolated beyond it). O(n x max_step).
CopyBound copy_oracle_bound(std::span<const int> runs, const CostCurve& cost, int max_step = 0);

// The hardware ceiling: max over n in 1..max_step of c(1) x n / c(n), the speedup of drafts
// that are always entirely accepted (max_step 0: the curve's largest measured n).
double speedup_ceiling(const CostCurve& cost, int max_step = 0);

}  // namespace reader
