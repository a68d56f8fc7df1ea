#include "reader/methods.h"

#include <stdexcept>

#include "reader/speculative.h"

namespace reader {

std::string_view to_string(Method method) {
  switch (method) {
    case Method::kAutoregressive:
      return "ar";
    case Method::kReader:
      return "reader";
    case Method::kRetrieval:
      return "retrieval";
    case Method::kRecycling:
      return "recycling";
    case Method::kDraft:
      return "draft";
    case Method::kSuffix:
      return "suffix";
  }
  return "?";
}

Method parse_method(std::string_view name) {
  for (Method m : {Method::kAutoregressive, Method::kReader, Method::kRetrieval, Method::kRecycling,
                   Method::kDraft, Method::kSuffix})
    if (name == to_string(m)) return m;
  throw std::invalid_argument("unknown method '" + std::string(name) +
                              "' (ar, reader, retrieval, recycling, draft, suffix)");
}

TreeShape default_tree_shape(Method method) {
  TreeShape s;
  // Candidate trees are generous; the cost-aware pruning (tree_policy.h) keeps per step only
  // what the measured cost curve says is worth verifying, often nothing but the root.
  const std::vector<TemplateNode> recycling_tree = {{-1, 0}, {-1, 1}, {0, 0},
                                                    {0, 1},  {2, 0},  {4, 0}};
  s.speculator.clear();
  s.d_search = 0;
  s.d_deep = 0;
  switch (method) {
    case Method::kAutoregressive:
    case Method::kSuffix:  // drafts from its suffix trees, not from a tree shape
      break;
    case Method::kReader:
      s.speculator = recycling_tree;
      s.d_search = 16;
      s.d_deep = 8;
      s.d_copy = 16;
      // Suffixes of up to 12 tokens, not the paper's 8: on the decision slices 10 and 12 drafted
      // the same text for 0.5% less verification, from HumanEval's code (+3-4%;
      // docs/calibration.md, session 31).
      s.max_suffix_len = 12;
      break;
    case Method::kRetrieval:
      s.d_search = 16;
      break;
    case Method::kRecycling:
    case Method::kDraft:
      s.speculator = recycling_tree;
      break;
  }
  return s;
}

TreeShape resolved_tree_shape(const MethodConfig& config) {
  if (config.shape) return *config.shape;
  if (config.method == Method::kReader && config.profile && config.profile->shape)
    return *config.profile->shape;
  return default_tree_shape(config.method);
}

std::unique_ptr<Drafter> make_drafter(Model& model, const MethodConfig& config) {
  if (config.method == Method::kAutoregressive) return nullptr;  // AR drafts nothing
  if (config.method == Method::kSuffix)
    return make_suffix_drafter(config.suffix, model.n_seq_max() - 1);
  TreeShape shape = resolved_tree_shape(config);
  if (config.calibrate) shape.adaptive = false;  // reader tune verifies whole candidate trees
  shape.validate_for(model.n_seq_max(), model.options().kv_unified);
  std::unique_ptr<Speculator> speculator;
  bool retrieval = false;
  RecyclingTable* shared_table = config.shared ? &config.shared->recycling_table : nullptr;
  switch (config.method) {
    case Method::kAutoregressive:  // returned above: AR and suffix need no speculator
    case Method::kSuffix:
      break;
    case Method::kReader:
      speculator = make_recycling_speculator(model.n_vocab(), shape.speculator,
                                             kReaderRecyclingContext, shared_table);
      retrieval = true;
      break;
    case Method::kRetrieval:
      shape.speculator.clear();
      retrieval = true;
      break;
    case Method::kRecycling:
      speculator = make_recycling_speculator(model.n_vocab(), shape.speculator, 1, shared_table);
      break;
    case Method::kDraft:
      if (!config.draft_model) throw std::invalid_argument("method 'draft' needs --draft-model");
      speculator = make_draft_model_speculator(
          *config.draft_model, shape.speculator,
          config.draft_cost > 0 ? config.draft_cost
                                : relative_decode_cost(*config.draft_model, model));
      break;
  }
  DraftPolicy policy;
  policy.cost = config.cost ? *config.cost : cost_model_for(model, config.profile);
  // Without retrieval nothing seconds a speculator's guess: its rates are those of all guesses.
  const auto counts = [retrieval](const AcceptanceCounts& c) {
    return retrieval ? c : without_seconding(c);
  };
  policy.priors =
      acceptance_priors(counts(config.profile ? config.profile->acceptance : AcceptanceCounts{}));
  if (config.profile && config.profile->acceptance_sampled.total_tried() > 0)
    policy.priors_sampled = acceptance_priors(counts(config.profile->acceptance_sampled));
  policy.ends_generation = [&model](Token t) { return model.is_eog(t); };
  policy.calibrate = config.calibrate;
  policy.adapt_cost = config.adapt_cost;
  policy.shared = config.shared;
  if (config.method == Method::kReader) {  // fitted to READER's candidates, and only theirs
    if (config.profile) {
      policy.refiner = config.profile->refiner;
      policy.refiner_sampled = config.profile->refiner_sampled;
    }
    policy.collect = config.collect_refiner;
    policy.token_class = [&model](Token t) { return token_class(model.token_bytes(t)); };
  }
  return std::make_unique<ReaderDrafter>(shape, std::move(speculator), config.datastore, retrieval,
                                         std::move(policy));
}

Generator::Generator(Model& model, MethodConfig config)
    : model_(model), config_(std::move(config)), shape_(resolved_tree_shape(config_)) {
  drafter_ = make_drafter(model_, config_);
  // The drafter's own shape: retrieval without a speculator, calibration without pruning.
  if (const auto* reader = dynamic_cast<const ReaderDrafter*>(drafter_.get()))
    shape_ = reader->shape();
}

void Generator::set_prediction(Tokens prediction) {
  if (drafter_) drafter_->set_reference(std::move(prediction));
}

void Generator::set_trace(DraftTrace* trace) {
  if (drafter_) drafter_->set_trace(trace);
}

AcceptanceCounts Generator::calibration_counts() const {
  const auto* reader = dynamic_cast<const ReaderDrafter*>(drafter_.get());
  return reader ? reader->calibration_counts() : AcceptanceCounts{};
}

Generator::~Generator() = default;

GenerationResult Generator::run(TokenSpan prompt, const GenerationOptions& options,
                                const TextCallback& on_text) {
  if (!drafter_) return generate_autoregressive(model_, prompt, options, on_text);
  return generate_speculative(model_, prompt, options, *drafter_, on_text);
}

}  // namespace reader
