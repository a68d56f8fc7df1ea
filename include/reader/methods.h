// Methods: the decoding methods the CLI, the server and the benchmark offer by name,
// each a configuration of the same engine, with default tree shapes for this machine.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "reader/drafter.h"
#include "reader/generate.h"
#include "reader/model.h"
#include "reader/profile.h"
#include "reader/suffix_drafter.h"

namespace reader {

enum class Method {
  kAutoregressive,  // one token per forward pass (the reference)
  kReader,          // Token Recycling tree + widening + deepening
  kRetrieval,       // widening only (trie + datastore), no speculator
  kRecycling,       // Token Recycling only
  kDraft,           // a draft model's tree only
  kSuffix,          // SuffixDecoding (ArcticInference): prompt + earlier-output suffix trees
};
std::string_view to_string(Method method);
Method parse_method(std::string_view name);  // throws std::invalid_argument listing the names

// The default tree for a method, sized from the verification cost curve measured on
// this CPU (README, "Tree sizes"): trees stay small because each of the 9th-16th tokens of
// a decode costs about a tenth of a one-token decode here, and later ones more.
TreeShape default_tree_shape(Method method);

struct MethodConfig {
  MethodConfig() = default;
  // Positional, as in {Method::kReader, shape, datastore, nullptr}; the rest at defaults.
  MethodConfig(Method m, std::optional<TreeShape> s = {}, const NextTokenSource* ds = nullptr,
               Model* dm = nullptr)
      : method(m), shape(std::move(s)), datastore(ds), draft_model(dm) {}
  Method method = Method::kReader;
  std::optional<TreeShape> shape;              // default_tree_shape(method) when unset
  const NextTokenSource* datastore = nullptr;  // long-term datastore (optional)
  Model* draft_model = nullptr;                // required by kDraft
  // kDraft: the draft model's one-token decode over this model's (relative_decode_cost);
  // 0: make_drafter measures it (a fraction of a second; clears both models' KV caches).
  double draft_cost = 0;
  // Tuned for this model (reader tune): cost curve, acceptance priors, tree shape. Null:
  // cautious priors, and the cost measured once on this machine and cached.
  const Profile* profile = nullptr;
  bool calibrate = false;  // reader tune: verify whole candidate trees and count acceptance
  SuffixParams suffix;     // kSuffix's parameters
  // The verification cost to draft with; null: cost_model_for(model, profile). A server
  // measures it once instead of on every request's thread.
  const CostModel* cost = nullptr;
  // State shared by the drafters of many requests (reader serve); null: none.
  SharedDraftState* shared = nullptr;
  // kReader: where each step's candidates go to fit a refiner (reader tune); null: nowhere.
  RefinerCollector* collect_refiner = nullptr;
  // Price steps with the cost curve corrected by the step times measured while generating
  // (StepCostTracker, tree_policy.h); false: the curve alone, so that the same text drafts
  // the same trees whatever the host's hour (tests that count drafts, --fixed-cost).
  bool adapt_cost = true;
};

// The tree shape a method drafts with: the config's, else the profile's (reader), else
// default_tree_shape().
TreeShape resolved_tree_shape(const MethodConfig& config);
// A fresh drafter for `config` (null for AR), as a Generator builds it; the batched engine
// builds one per request. Throws std::invalid_argument on a bad config.
std::unique_ptr<Drafter> make_drafter(Model& model, const MethodConfig& config);

// A reusable generator: per-method state that should outlive one prompt (Token
// Recycling's successor table, SuffixDecoding's tree of earlier outputs) lives here.
class Generator {
 public:
  Generator(Model& model, MethodConfig config);  // throws std::invalid_argument on bad config
  ~Generator();
  GenerationResult run(TokenSpan prompt, const GenerationOptions& options,
                       const TextCallback& on_text = {});
  Method method() const { return config_.method; }
  // OpenAI's predicted output for the next run(): one more text READER's drafter searches
  // (ignored by the other methods).
  void set_prediction(Tokens prediction);
  const TreeShape& shape() const { return shape_; }
  // Where the drafter writes each step's candidates and choice (draft_trace.h); null: off.
  void set_trace(DraftTrace* trace);
  // Acceptance counts of calibration mode (empty otherwise, and for AR).
  AcceptanceCounts calibration_counts() const;

 private:
  Model& model_;
  MethodConfig config_;
  TreeShape shape_;
  std::unique_ptr<Drafter> drafter_;  // null for kAutoregressive
};

}  // namespace reader
