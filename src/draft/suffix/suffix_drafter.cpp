// SuffixDrafter: ArcticInference's SuffixDecodingCache (suffix_decoding/cache.py) and its
// vLLM driver (vllm/model_runner.py, propose_suffix_draft_token_ids) in C++ around their
// SuffixTree, with the same two trees, context window, parameters and draft choice.
#include "reader/suffix_drafter.h"

#include <algorithm>
#include <deque>
#include <stdexcept>
#include <string>

#include "suffix_tree.h"  // ArcticInference, from the sdist scripts/setup.sh extracts

namespace reader {
namespace {

class SuffixDrafter final : public Drafter {
 public:
  SuffixDrafter(const SuffixParams& params, int max_branches)
      : params_(params), max_branches_(max_branches), global_(params.max_depth) {}

  void begin(TokenSpan prompt) override {
    local_ = std::make_unique<SuffixTree>(params_.max_depth);
    local_->extend(0, prompt);
    output_seq_ = -1;
    if (params_.max_cached_outputs == 0) return;
    // A fresh sequence of the global tree receives this output as it is committed.
    output_seq_ = next_seq_;
    next_seq_ = (next_seq_ + 1) & 0x7FFFFFFF;
    cached_.push_back(output_seq_);
    while (static_cast<int>(cached_.size()) > params_.max_cached_outputs) {
      global_.remove(cached_.front());  // also safe for a sequence that got no tokens
      cached_.pop_front();
    }
  }

  DraftTree draft(TokenSpan context, int budget_cap) override {
    DraftTree tree(context.back(), budget_cap);
    const int max_tokens = std::min(params_.max_spec_tokens, budget_cap - 1);
    if (!local_ || max_tokens <= 0) return tree;
    // Like the vLLM driver: match within the last max_depth tokens of prompt + output.
    if (context.size() > static_cast<size_t>(params_.max_depth))
      context = context.last(static_cast<size_t>(params_.max_depth));
    const Draft local = speculate(*local_, context, max_tokens);
    const Draft global = speculate(global_, context, max_tokens);
    const Draft& best = local.score >= global.score ? local : global;
    add_parents_array(tree, 0, best.token_ids, best.parents, best.probs, DraftSource::kSuffix,
                      max_branches_);
    return tree;
  }

  void observe(const DraftTree&, const NodeLogits&) override {}
  void feedback(const DraftTree&, const std::vector<int>&) override {}

  void commit(TokenSpan committed) override {
    if (local_) local_->extend(0, committed);
    if (output_seq_ >= 0) global_.extend(output_seq_, committed);
  }

  // The output stays in the global tree (it was added as committed); the prompt goes.
  void finish(TokenSpan, TokenSpan) override { local_.reset(); }

 private:
  Draft speculate(SuffixTree& t, TokenSpan context, int max_tokens) const {
    return t.speculate(context, max_tokens, params_.max_spec_factor, params_.max_spec_offset,
                       params_.min_token_prob, params_.use_tree_spec);
  }

  SuffixParams params_;
  int max_branches_;                   // leaves a drafted tree may have
  SuffixTree global_;                  // every output, one sequence each
  std::unique_ptr<SuffixTree> local_;  // this generation: prompt + output as sequence 0
  int output_seq_ = -1;                // this output's sequence in global_ (-1: none)
  int next_seq_ = 0;                   // next sequence id for global_
  std::deque<int> cached_;             // sequences of global_, oldest first
};

}  // namespace

bool suffix_decoding_available() { return true; }

std::unique_ptr<Drafter> make_suffix_drafter(const SuffixParams& params, int max_branches) {
  const auto bad = [](const std::string& what) {
    throw std::invalid_argument("method 'suffix': " + what);
  };
  if (params.max_depth < 1) bad("max_depth must be at least 1");
  if (params.max_spec_tokens < 1) bad("max_spec_tokens must be at least 1");
  if (!(params.max_spec_factor >= 0)) bad("max_spec_factor must be >= 0");
  if (!(params.min_token_prob >= 0 && params.min_token_prob <= 1))
    bad("min_token_prob must lie in [0, 1]");
  if (params.max_cached_outputs < 0) bad("max_cached_outputs must be >= 0");
  if (max_branches < 1) bad("the verifier has no branch sequence free");
  return std::make_unique<SuffixDrafter>(params, max_branches);
}

}  // namespace reader
