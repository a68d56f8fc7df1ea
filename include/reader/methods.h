// Methods: the decoding methods the CLI, the server and the benchmark offer by name,
// each a configuration of the same engine, with default tree shapes for this machine.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "reader/drafter.h"
#include "reader/generate.h"
#include "reader/model.h"
#include "reader/profile.h"

namespace reader {

enum class Method {
  kAutoregressive,  // one token per forward pass (the reference)
  kReader,          // Token Recycling tree + widening + deepening
  kRetrieval,       // widening only (trie + datastore), no speculator
  kRecycling,       // Token Recycling only
  kDraft,           // a draft model's tree only
};
std::string_view to_string(Method method);
Method parse_method(std::string_view name);  // throws std::invalid_argument listing the names

// The default tree for a method, sized from the verification cost curve measured on
// this CPU (README, "Tree sizes"): trees stay small because a decode of n tokens costs
// about n/3 times one token beyond n = 4 here.
TreeShape default_tree_shape(Method method);

struct MethodConfig {
  Method method = Method::kReader;
  std::optional<TreeShape> shape;              // default_tree_shape(method) when unset
  const NextTokenSource* datastore = nullptr;  // long-term datastore (optional)
  Model* draft_model = nullptr;                // required by kDraft
  // Tuned for this model (reader tune): cost curve, acceptance priors, tree shape. Null:
  // cautious priors, and the cost measured once on this machine and cached.
  const Profile* profile = nullptr;
  bool calibrate = false;  // reader tune: verify whole candidate trees and count acceptance
};

// A reusable generator: per-method state that should outlive one prompt (Token
// Recycling's successor table) lives here.
class Generator {
 public:
  Generator(Model& model, MethodConfig config);  // throws std::invalid_argument on bad config
  ~Generator();
  GenerationResult run(TokenSpan prompt, const GenerationOptions& options,
                       const TextCallback& on_text = {});
  Method method() const { return config_.method; }
  const TreeShape& shape() const { return shape_; }
  // Acceptance counts of calibration mode (empty otherwise, and for AR).
  AcceptanceCounts calibration_counts() const;

 private:
  Model& model_;
  MethodConfig config_;
  TreeShape shape_;
  std::unique_ptr<ReaderDrafter> drafter_;
};

}  // namespace reader
