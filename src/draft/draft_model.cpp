// Draft-model speculator: a smaller GGUF with the same vocabulary drafts the template
// layer by layer (one decode per depth) in its own context, with the same tree layout
// the verifier uses (one sequence id per template branch).
#include <algorithm>
#include <stdexcept>

#include "reader/drafter.h"
#include "reader/model.h"
#include "reader/sampling.h"
#include "reader/verify.h"

namespace reader {
namespace {

class DraftModelSpeculator final : public Speculator {
 public:
  DraftModelSpeculator(Model& model, std::vector<TemplateNode> tmpl, double decode_cost)
      : model_(model),
        tmpl_(std::move(tmpl)),
        shape_(0, static_cast<int>(tmpl_.size()) + 1),
        decode_cost_(decode_cost) {
    // The template as a tree with placeholder tokens (template index) gives each node its
    // sequence-id set once; drafted tokens reuse it every step.
    for (size_t i = 0; i < tmpl_.size(); ++i)
      shape_.add(tmpl_[i].parent < 0 ? 0 : tmpl_[i].parent + 1, static_cast<Token>(i),
                 DraftSource::kSpeculator);
    layout_ = layout_tree(shape_, 0, 1);
    if (layout_.branches >= model_.n_seq_max())
      throw std::invalid_argument("draft model context has too few sequence ids for the template");
    for (size_t i = 0; i < tmpl_.size(); ++i) k_ = std::max(k_, tmpl_[i].rank + 1);
    k_ = std::max(k_, kConfidenceCandidates);
  }
  double layer_cost() const override { return decode_cost_; }
  std::string_view name() const override { return "draft"; }
  int max_nodes() const override { return static_cast<int>(tmpl_.size()); }
  void begin(TokenSpan) override {
    model_.kv_clear();
    cached_ = 0;
  }
  void commit(TokenSpan) override {}
  void observe(const DraftTree&, const NodeLogits&) override {}

  void draft(TokenSpan context, DraftTree& tree) override {
    // Catch up on committed tokens before the root, in n_batch chunks on sequence 0.
    if (cached_ > static_cast<int>(context.size()) - 1) begin(context);
    const int root_pos = static_cast<int>(context.size()) - 1;
    while (cached_ < root_pos) {
      batch_.clear();
      for (int p = cached_; p < root_pos && static_cast<int>(batch_.size()) < model_.n_batch(); ++p)
        batch_.push_back({context[static_cast<size_t>(p)], p, seq0_, false});
      model_.decode(batch_);
      cached_ += static_cast<int>(batch_.size());
    }
    // Branches see the prefix; the root carries every branch id (as in the verifier).
    for (int b = 0; b < layout_.branches; ++b) model_.kv_seq_cp(0, 1 + b, -1, -1);
    const BatchToken root{context.back(), root_pos, layout_.seq_ids[0], true};
    model_.decode({&root, 1});
    cached_ = root_pos + 1;
    std::vector<int> tree_node(tmpl_.size() + 1, -1);  // template node (+1) -> tree node
    tree_node[0] = 0;
    std::vector<int> row_of(tmpl_.size() + 1, -1);  // template node (+1) -> logits row
    row_of[0] = 0;
    // Layer by layer: pick successors from the parents' logits, then decode the layer.
    for (int depth = 1; depth <= shape_.max_depth(); ++depth) {
      layer_.clear();
      for (int t = 1; t < shape_.size(); ++t) {
        if (shape_.depth(t) != depth) continue;
        const int parent = shape_.parent(t);
        if (tree_node[static_cast<size_t>(parent)] < 0 || row_of[static_cast<size_t>(parent)] < 0)
          continue;
        const auto [tok, share] = ranked(model_.logits(row_of[static_cast<size_t>(parent)]),
                                         tmpl_[static_cast<size_t>(t - 1)].rank);
        if (tok < 0) continue;  // fewer than rank+1 finite logits
        // Scored as Token Recycling scores its nodes (the path's product of shares), so
        // the calibrated confidence buckets apply to the draft model's guesses too.
        const int parent_node = tree_node[static_cast<size_t>(parent)];
        const float above = parent_node > 0 ? tree.score(parent_node) : 1.0f;
        const int node = tree.add(parent_node, tok, DraftSource::kSpeculator, above * share);
        if (node < 0) continue;
        tree_node[static_cast<size_t>(t)] = node;
        layer_.push_back(t);
      }
      if (layer_.empty()) break;
      if (depth == shape_.max_depth()) break;  // no deeper layer needs this one's logits
      batch_.clear();
      for (int t : layer_)
        batch_.push_back({tree.token(tree_node[static_cast<size_t>(t)]), root_pos + depth,
                          layout_.seq_ids[static_cast<size_t>(t)], true});
      model_.decode(batch_);
      std::fill(row_of.begin(), row_of.end(), -1);
      for (size_t i = 0; i < layer_.size(); ++i)
        row_of[static_cast<size_t>(layer_[i])] = static_cast<int>(i);
    }
    // Drop the drafted cells; the committed prefix stays in sequence 0.
    for (int b = 0; b < layout_.branches; ++b) model_.kv_seq_rm(1 + b, -1, -1);
    model_.kv_seq_rm(0, root_pos + 1, -1);  // a chain template drafts in sequence 0 itself
  }

 private:
  // The rank-th most likely token of a row (rank is small) and its softmax share among the
  // row's top k_ candidates.
  std::pair<Token, float> ranked(const float* logits, int rank) {
    top_k_tokens(logits, model_.n_vocab(), k_, best_);
    candidate_shares(best_, shares_);
    const auto j = static_cast<size_t>(rank);
    return {best_[j].second, static_cast<float>(shares_[j])};
  }

  Model& model_;
  std::vector<TemplateNode> tmpl_;
  DraftTree shape_;     // the template with placeholder tokens
  TreeLayout layout_;   // its sequence-id sets
  int k_ = 1;           // ranks needed
  double decode_cost_;  // one decode of the draft model, in the target's one-token decodes
  int cached_ = 0;      // committed tokens in the draft model's KV cache
  const int seq0_[1] = {0};
  std::vector<BatchToken> batch_;
  std::vector<int> layer_;
  std::vector<std::pair<float, Token>> best_;
  std::vector<double> shares_;  // scratch: best_'s softmax shares
};

}  // namespace

std::unique_ptr<Speculator> make_draft_model_speculator(Model& draft_model,
                                                        std::vector<TemplateNode> tmpl,
                                                        double decode_cost) {
  return std::make_unique<DraftModelSpeculator>(draft_model, std::move(tmpl), decode_cost);
}

}  // namespace reader
