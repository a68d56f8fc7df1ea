// DraftTrace: what a drafter chose at every step, as JSON lines, so that another policy can
// be replayed offline against what the model then accepted (scripts/replay_drafts.py).
//
// Decoding commits the same tokens whatever was drafted (greedy, or sampling, whose draw at
// each position the seed fixes: sampling.h), so a trace of one run tells how any other choice
// among the same candidates would have fared, in seconds instead of a benchmark on a noisy
// machine. Lines, in order (one generation: run, prompt, then a step
// before every commit but the first):
//   {"run": {"set": ..., "id": ..., "method": ...}}      (written by whoever labels runs)
//   {"prompt": [tokens]}
//   {"step": {"context": n, "parents": [...], "tokens": [...], "sources": [...],
//             "q": [...], "cost": [c(1), c(2), ...], "keep": [...]}}
//   {"commit": [tokens]}
// A step lists the candidate tree's nodes 1..n-1 (the root, the context's last token, is
// implied): parent index, token, source (generate.h's DraftSource), the acceptance estimate
// the policy weighed it by; c(k) for every size up to the whole tree at this context; and
// the node indices (root first) it sent to verification.
#pragma once

#include <ostream>
#include <string_view>
#include <vector>

#include "reader/draft_tree.h"
#include "reader/tokens.h"

namespace reader {

class CostCurve;

class DraftTrace {
 public:
  explicit DraftTrace(std::ostream& out) : out_(out) {}
  void run(std::string_view set, std::string_view id, std::string_view method);
  void prompt(TokenSpan prompt);
  // `q[i]` for every node of `candidates` (q[0] ignored; empty: not weighed, written as -1),
  // `cost` the curve at this context (written for sizes 1 .. candidates.size()), `keep` the
  // verified nodes, root first (empty: all of them).
  void step(size_t context, const DraftTree& candidates, const std::vector<double>& q,
            const CostCurve& cost, const std::vector<int>& keep);
  void commit(TokenSpan committed);

 private:
  std::ostream& out_;
};

}  // namespace reader
