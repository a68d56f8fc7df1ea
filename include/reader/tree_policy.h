// Tree policy: which draft nodes are worth verifying on this machine (paper, Theorem 1).
//
// A tree T is worth (1 + sum of alpha_i) accepted tokens per verification, where alpha_i
// is the probability that node i's whole prefix is accepted, and costs c(|T|, L) single-
// token decodes at L cached tokens, from the cost measured here (`reader tune`). Because
// alpha never grows from parent to child, taking nodes in decreasing alpha keeps every
// prefix a valid tree, and the best tree is the best such prefix. alpha_i is the product
// of conditional acceptance rates q(node | parent accepted), estimated per kind of node
// from calibrated priors (profile.h) and online feedback, then refined from what the text
// around each node says (acceptance_refiner.h).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "reader/draft_tree.h"

namespace reader {

// c(n): time of one verification step of n tokens over time of one autoregressive step.
class CostCurve {
 public:
  // Sorted by n, starting at n = 1; values positive, finite and non-decreasing (else throws
  // std::invalid_argument).
  explicit CostCurve(std::vector<std::pair<int, double>> points);
  double operator()(int n) const;  // piecewise linear, extrapolated linearly
  const std::vector<std::pair<int, double>>& points() const { return points_; }

 private:
  std::vector<std::pair<int, double>> points_;
};

// c(n, L): cost curves measured at several context lengths L (cached tokens). Attention
// makes a step of n tokens grow with L faster than a step of one, so long prompts make
// drafting dearer than short ones.
class CostModel {
 public:
  struct Curve {
    int context = 0;  // cached tokens when the curve was measured
    CostCurve curve;  // c(n) at that context
  };
  explicit CostModel(std::vector<Curve> curves);  // non-empty, sorted by context, context >= 0
  // The curve at `context`: linear between measured contexts, the nearest one outside.
  CostCurve at(int context) const;
  const std::vector<Curve>& curves() const { return curves_; }

  // Batched steps with one KV stream per sequence (engine.h) are priced from a table of
  // their own: llama.cpp pays per stream as well as per token, so here 4 sequences x 1
  // token cost 2.3 one-token decodes and 4 x 2 cost 2.6, where one chain of 4 costs 1.8 and
  // of 8, 2.4. A chain's curve would overcharge drafting in a batch by half.
  struct BatchCurve {
    int sequences = 0;  // B >= 2, decoding side by side
    CostCurve curve;    // c_B(k): B sequences sending k tokens each, over one 1-token decode
  };
  // Sorted by sequences, each >= 2 (else throws std::invalid_argument); measured at
  // `context` cached tokens per sequence.
  void set_batch(int context, std::vector<BatchCurve> curves);
  const std::vector<BatchCurve>& batch() const { return batch_; }
  int batch_context() const { return batch_context_; }
  // Passes of a decode at one context: the batch table (linear between measured B,
  // proportional beyond the last), scaled by how the chain curve grows from the table's
  // context to this one; without a table, or for one sequence, the chain curve at
  // sequences x each tokens. The chain curves are interpolated once, here, since a batched
  // step prices every candidate trim of its drafts (engine.cpp).
  class PassPrices {
   public:
    // One pass in which `sequences` sequences send `each` tokens apiece.
    double operator()(int sequences, int each) const;

   private:
    friend class CostModel;
    PassPrices(CostCurve chain, CostCurve table_chain, std::vector<BatchCurve> batch)
        : chain_(std::move(chain)),
          table_chain_(std::move(table_chain)),
          batch_(std::move(batch)) {}
    CostCurve chain_;                // the chain curve at the pass's context
    CostCurve table_chain_;          // the chain curve at the batch table's context
    std::vector<BatchCurve> batch_;  // the batch table (empty: not measured)
  };
  PassPrices passes_at(int context) const;
  double pass(int sequences, int each, int context) const {
    return passes_at(context)(sequences, each);
  }

 private:
  std::vector<Curve> curves_;
  std::vector<BatchCurve> batch_;  // empty: not measured
  int batch_context_ = 0;
};
// The probed curves with the step costs generation itself paid (`reader tune`): `in_place`
// is c(n) of verification steps against the autoregressive steps of the same prompts, at
// their (short) contexts, and becomes the first curve up to its largest n (its points added to
// the probe's); beyond it the probe's shape goes on from there, and longer contexts add what
// the probe measured them to add. A decode in a loop that does nothing else costs less than a
// step among drafting and bookkeeping (docs/tree-sizes.md, session 31). The batch table
// stays the probe's: batched steps are priced as before.
CostModel with_steps_in_place(const CostModel& probed, const CostCurve& in_place);

// Verification steps priced as they cost where and when they run. The profile's c(n, L) was
// measured at one hour, and on a shared host the price of a long step against a one-token one
// moves by the hour: on session 51's Xeon, setup's tune measured c(4) = 1.28 and benches two
// hours later paid 1.55-1.82 (docs/tree-sizes.md, session 51). Priced at the wrong hour's
// curve, the policy drafts past the point where drafted tokens pay. A step also slows the one
// after it (a one-token decode after an eight-token one costs 15-25% more here, session 50),
// which is part of its price too, and it fades over several steps (session 52: one-token
// steps cost 1.14 AR steps right after a longer step, 1.06 one to three steps later, 1.035
// four to seven later). So the tracker fits recent steps' decode times (exponential
// forgetting) as T = a + j [n > 1] + b x + d x': x = c(n, L) - 1 on the profile's curve for
// the step's size and context, x' the same summed over the steps before it (the last weighing
// 1, the one before it kAftermathDecay, and so on), j what any step of more than one token
// adds, with priors that j = 0, b = a and d = 0 (the profile's curve, and no aftermath;
// d >= 0). One fit over all sizes: a price per size would favour whichever size's few steps
// happened to run fast. A step of n tokens costs (a + j [n > 1] + (b + d / (1 -
// kAftermathDecay)) x) / a, its aftermath included, never less than the profile says: on
// session 36's AMD EPYC, prices fitted below the profile's drafted more and ran 1-4% slower
// (docs/tree-sizes.md, session 36).
class StepCostTracker {
 public:
  // One verification step of `tokens` tokens: `excess` = c(tokens, L) - 1 on the profile's
  // curve at its context, `ms` its decode's wall time. Ignored: sizes below 1, non-finite or
  // non-positive times, and the first step after start(), which followed a prefill.
  void record(int tokens, double excess, double ms);
  // A generation starts: its first step follows the prompt's prefill, not a step.
  void start() {
    has_previous_ = false;
    previous_ = 0;
  }
  // `curve` (the profile's at the coming step's context) priced by recent steps: the same
  // points, c(1) = 1, never below `curve`; `curve` itself until kMinSteps steps are recorded.
  CostCurve priced(const CostCurve& curve) const;
  double steps() const { return sums_[0][0]; }  // decayed count of recorded steps
  // The fit (a, j, b, d) in milliseconds; a = 0: nothing fitted yet.
  const std::array<double, 4>& fit() const { return fit_; }

  static constexpr double kForget = 0.99;   // each record's weight decays by this per step
  static constexpr double kMinSteps = 8;    // decayed steps before prices move
  static constexpr double kPriorSteps = 2;  // each prior's weight, in steps at x = kPriorExcess
  static constexpr double kPriorExcess = 0.5;
  // How much of a step's aftermath is left one step later: half, from session 52's fade (the
  // class comment); tried against 0 (the step after only), 0.7 and 0.8 on the decision slices
  // (docs/tree-sizes.md, sessions 52-53).
  static constexpr double kAftermathDecay = 0.5;

 private:
  void refit();
  // Decayed sums of products of the regressors and the time, u = (1, [n > 1], x, x', T).
  std::array<std::array<double, 5>, 5> sums_{};
  std::array<double, 4> fit_{};  // (a, j, b, d)
  double previous_ = 0;          // x' of the coming step: past steps' x, fading
  bool has_previous_ = false;    // whether a step was recorded since start()
};

// Used only when no profile and no measurement is available: SmolLM2 Q8_0 on an Intel
// Xeon at 512 cached tokens (docs/tree-sizes.md, "Session 2"), the same curve at every context.
CostModel fallback_cost_model();

// Retrieval: which sources, each at its own longest match, rank the drafted token first. The
// merged ranking follows the longest match, so a datastore phrase can outvote this text's own
// continuation; calibration prompts accept such a token 5-20% of the time, and one both agree
// on more often than either alone (docs/calibration.md, "Agreement"). A speculator node uses two
// values: kBoth for a guess that retrieval or the copy drafted too, kText for its guess alone.
enum class Agreement : std::uint8_t {
  kText = 0,      // this text's trie (prompt, output so far, prediction) only
  kLongTerm = 1,  // only the long-term sources (datastore, earlier outputs)
  kBoth = 2,      // the trie and a long-term source (speculator: seconded)
  kNeither = 3,   // no source alone: the merged counts chose it
};
inline constexpr int kAgreements = 4;

// What a node's acceptance depends on: who drafted it and with how much evidence.
struct NodeKind {
  DraftSource source = DraftSource::kSpeculator;  // speculator, widening, deepening or copy
  int feature = 0;   // speculator: 4 * (depth - 1) + sibling rank; retrieval, copy: match length
  int strength = 0;  // buckets 0..3. Widening, deepening: the share of its level's counts;
                     // speculator: the probability its source row gave (its confidence);
                     // copy: depth below the root, 4 and deeper in the last
  Agreement agreement = Agreement::kText;  // retrieval: which sources' own best guess it is;
                                           // speculator: kBoth where retrieval or the copy
                                           // drafted it too; copy: always kText
};

// The kind of a speculator node at `depth` (1 = child of the root) holding its parent's
// rank-th guess with confidence bucket `strength`, alone or `seconded` by retrieval or the
// copy; the drafter and reader tune agree on it.
inline NodeKind speculator_kind(int depth, int rank, int strength = 0, bool seconded = false) {
  return {DraftSource::kSpeculator, std::min(depth - 1, 15) * 4 + std::min(rank, 3), strength,
          seconded ? Agreement::kBoth : Agreement::kText};
}

// The sources whose nodes READER weighs by kind, in the order of the acceptance cells (the
// root is not drafted; SuffixDecoding scores its own drafts).
inline constexpr std::array<DraftSource, 4> kWeighedSources = {
    DraftSource::kSpeculator, DraftSource::kWidening, DraftSource::kDeepening, DraftSource::kCopy};

// Acceptance counts per kind of node: how often a node was accepted when its parent was.
// `reader tune` collects them on calibration prompts; profiles store them.
class AcceptanceCounts {
 public:
  static constexpr int kFeatures = 64;
  static constexpr int kCells =
      static_cast<int>(kWeighedSources.size()) * kFeatures * 4 * kAgreements;
  AcceptanceCounts();
  void add(const NodeKind& kind, bool accepted, double weight = 1.0);
  double accepted(int cell) const { return accepted_[static_cast<size_t>(cell)]; }
  double tried(int cell) const { return tried_[static_cast<size_t>(cell)]; }
  void set(int cell, double accepted, double tried);  // throws on accepted > tried or < 0
  double total_tried() const;
  static int cell(const NodeKind& kind);
  static NodeKind kind(int cell);

 private:
  std::vector<double> accepted_;  // accepted count per cell
  std::vector<double> tried_;     // tries (parent accepted) per cell
};

// Prior acceptance rate per cell, from calibration counts. A cell with little evidence
// borrows from coarser groups (same source and feature, then same feature, then a
// cautious structural default), and retrieval rates are made non-decreasing in match
// length (isotonic): a longer verbatim match is never weaker evidence than a shorter one.
std::vector<double> acceptance_priors(const AcceptanceCounts& counts);

// The counts as a drafter whose speculator guesses nothing can second (no retrieval, no
// copy) sees them: the speculator's seconded counts (Agreement::kBoth) folded into its lone
// ones, so that its rates are those of all its guesses.
AcceptanceCounts without_seconding(AcceptanceCounts counts);

// Conditional acceptance rates q(kind): the calibrated prior updated by what this run
// accepts, with exponential forgetting so the estimate follows the current text.
class AcceptanceModel {
 public:
  // `priors` from acceptance_priors(); `prior_weight` in pseudo-observations.
  explicit AcceptanceModel(std::vector<double> priors, double prior_weight = 8.0);
  AcceptanceModel();  // priors from no calibration at all: cautious defaults
  double estimate(const NodeKind& kind) const;
  void record(const NodeKind& kind, bool accepted);
  std::uint64_t observations() const { return observations_; }

 private:
  std::vector<double> priors_;  // prior mean per cell
  double prior_weight_;         // pseudo-observations behind each prior
  AcceptanceCounts online_;     // decayed counts seen in this process
  std::uint64_t observations_ = 0;
};

// Calibration in the large: the priors come from other prompts, and a text can accept
// systematically less than they say (sampling, new kinds of text) or more (a copy). One
// logit shift b, fitted online to the nodes tried recently (their predicted q against
// whether they were accepted), corrects every kind at once: q' = sigmoid(logit(q) + b).
// It is how a drafter notices that its drafts stopped paying, without any timing.
class AcceptanceRecalibration {
 public:
  double adjust(double q) const;                 // q' for a predicted q
  void record(double predicted, bool accepted);  // one tried node
  void refit();                                  // after a step's records
  double shift() const { return shift_; }

 private:
  static constexpr size_t kWindow = 256;        // nodes remembered (the current text, roughly)
  std::vector<std::pair<float, bool>> recent_;  // (logit of predicted q, accepted), a ring
  size_t next_ = 0;                             // ring position of the next record
  double shift_ = 0;                            // b
};

// This text's record of the tokens retrieval drafted and the model then judged. A prompt can
// hold tokens the model does not write (an article tokenized " ," and " ." where the model
// writes "," and "."): such a token fails wherever a copy carries it, whatever its kind's
// rate says, and one failure per copy is a long chain wasted. A recorded token's estimate is
// pulled toward its record, q' = min(q, (accepted + w q) / (tried + w)), with w = 3: one
// rejection takes a 0.9 to 0.68, two to 0.54. It is never raised: the kind's rate already
// counts the token's successes. On decision prompts: 6% fewer tokens drafted, +0.8% priced
// on the measured step costs, summarization +1% (docs/calibration.md, session 16).
class TokenRecord {
 public:
  void clear() { counts_.clear(); }
  void record(Token token, bool accepted);  // one tried retrieval node holding `token`
  double adjust(Token token, double q) const;

 private:
  static constexpr double kPriorWeight = 3.0;  // w: tries the estimate q is worth
  struct Counts {
    int accepted = 0;
    int tried = 0;
  };
  std::unordered_map<Token, Counts> counts_;
};

// Estimates below 0.45 count for 0.7 of themselves when choosing what to verify (after the
// online recalibration; what feedback records stays the estimate). Traced on decision
// prompts, nodes rated 0.3-0.4 were accepted 25% of the time, not 35%: near a drafted
// token's break-even here, so they cost more than they brought. Shrinking them drafted 12%
// fewer tokens and ran about 2% faster (docs/calibration.md, session 15).
inline double doubt_low_estimate(double q) { return q < 0.45 ? 0.7 * q : q; }

// Nodes of `tree` (by index, root first) forming the tree that maximizes expected accepted
// tokens per unit of verification cost; `q[i]` is node i's conditional acceptance rate.
std::vector<int> best_subtree(const DraftTree& tree, const std::vector<double>& q,
                              const CostCurve& cost);

// The same objective over single root-to-node paths: the path (root first) maximizing
// (1 + sum of alpha) / c(length). A path is what llama.cpp's CPU kernels verify bit for
// bit like one-token decodes (README, "Losslessness and rounding").
std::vector<int> best_path(const DraftTree& tree, const std::vector<double>& q,
                           const CostCurve& cost);

// `tree` restricted to `keep` (which must contain every kept node's parent).
DraftTree restrict_tree(const DraftTree& tree, const std::vector<int>& keep);

}  // namespace reader
