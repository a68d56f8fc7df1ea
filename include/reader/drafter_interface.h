// Drafter: what the speculative engine (generate_speculative) asks of any drafting method.
//
// One generation calls set_sampling() and begin() once, then every step draft() -> (verification)
// -> observe() -> feedback() -> commit(), and finish() when the output is complete. A Drafter may
// outlive one generation (a Generator keeps it), so state that should carry over between prompts
// (Token Recycling's successor table, SuffixDecoding's tree of earlier outputs) lives in the
// Drafter itself.
#pragma once

#include <functional>
#include <vector>

#include "reader/draft_tree.h"
#include "reader/tokens.h"

namespace reader {

class DraftTrace;  // draft_trace.h

// Logits row of a node of the tree just verified.
using NodeLogits = std::function<const float*(int node)>;

class Drafter {
 public:
  virtual ~Drafter() = default;
  // Called once with the prompt before generation starts.
  virtual void begin(TokenSpan prompt) = 0;
  // Called before begin(): whether this generation samples (temperature > 0). A drafted
  // token is then accepted only as often as the model samples it, less often than greedy.
  virtual void set_sampling(bool /*sampled*/) {}
  // Text the output will probably copy (OpenAI's predicted outputs), searched like the
  // prompt from the next begin() on. A drafter that cannot use it ignores it.
  virtual void set_reference(Tokens /*reference*/) {}
  // Called before draft() when the coming decode also carries other sequences. Their decode
  // splits into passes of equal tokens per sequence, so the engine prices every sequence's
  // draft together (engine/batch_policy.h) and wants each drafter's whole best chain, with
  // its scores, rather than one cut to what would pay for this sequence alone.
  virtual void set_batched(bool /*batched*/) {}
  // Called before draft(): whether the coming decode can verify a whole tree (else only one
  // root-to-leaf path: a cache with one stream per sequence, or too little room left for the
  // cells a tree's rejected branches leave behind). A drafter that picks one path anyway
  // ignores it; the engine verifies a tree's first-child chain where it cannot take a tree.
  virtual void set_whole_trees(bool /*whole_trees*/) {}
  // Where to write what it drafts and why, step by step (draft_trace.h); null: nowhere. A
  // drafter without a policy to replay ignores it.
  virtual void set_trace(DraftTrace* /*trace*/) {}
  // The tree to verify for the committed `context` (ending with the root token, which the
  // model has not seen yet); at most `budget_cap` nodes, root included.
  virtual DraftTree draft(TokenSpan context, int budget_cap) = 0;
  // Sees the verifier's logits for every node of the tree just verified.
  virtual void observe(const DraftTree& tree, const NodeLogits& logits) = 0;
  // The decode that verified the last drafted tree, alone (no other sequence in it): `tokens`
  // tokens, `ms` milliseconds. A drafter that prices steps by their cost learns it here.
  virtual void observe_step_time(int /*tokens*/, double /*ms*/) {}
  // Which nodes of the last drafted tree were accepted (root first).
  virtual void feedback(const DraftTree& tree, const std::vector<int>& accepted_nodes) = 0;
  // Tokens committed this step (the accepted path and the bonus token), in order.
  virtual void commit(TokenSpan committed) = 0;
  // The generation is complete: `output` is every token it emitted (as committed). A
  // drafter that learns from finished outputs keeps them here.
  virtual void finish(TokenSpan /*prompt*/, TokenSpan /*output*/) {}
};

}  // namespace reader
