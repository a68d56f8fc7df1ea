// Token Recycling: an adjacency table of each token's top-k successors, refreshed from
// every verification's logits, expanded breadth-first along a static template.
#include <algorithm>

#include "reader/drafter.h"
#include "reader/sampling.h"

namespace reader {
namespace {

class RecyclingSpeculator final : public Speculator {
 public:
  RecyclingSpeculator(int n_vocab, std::vector<TemplateNode> tmpl,
                      std::vector<RecycledSuccessor>* shared)
      : n_vocab_(n_vocab), tmpl_(std::move(tmpl)), table_(shared ? *shared : own_table_) {
    for (const auto& n : tmpl_) k_ = std::max(k_, n.rank + 1);
    // A shared table sized for another template is started afresh at this one's k.
    const size_t size = static_cast<size_t>(n_vocab_) * static_cast<size_t>(k_);
    if (table_.size() != size) table_.assign(size, RecycledSuccessor{});
  }
  std::string_view name() const override { return "recycling"; }
  int max_nodes() const override { return static_cast<int>(tmpl_.size()); }
  void begin(TokenSpan) override {}  // the table carries over between prompts, as in the paper
  void commit(TokenSpan) override {}

  void draft(TokenSpan context, DraftTree& tree) override {
    node_of_.assign(tmpl_.size(), -1);
    for (size_t i = 0; i < tmpl_.size(); ++i) {
      const int parent = tmpl_[i].parent < 0 ? 0 : node_of_[static_cast<size_t>(tmpl_[i].parent)];
      if (parent < 0) continue;  // parent missing: its subtree is skipped
      const RecycledSuccessor& s = row(tree.token(parent))[tmpl_[i].rank];
      if (s.token < 0) continue;
      const float path = parent == 0 ? 1.0f : tree.score(parent);
      node_of_[i] = tree.add(parent, s.token, DraftSource::kSpeculator, path * s.confidence);
    }
    (void)context;
  }

  void observe(const DraftTree& tree, const NodeLogits& logits) override {
    for (int i = 0; i < tree.size(); ++i) update(tree.token(i), logits(i));
  }

 private:
  RecycledSuccessor* row(Token t) {
    return &table_[static_cast<size_t>(t) * static_cast<size_t>(k_)];
  }

  void update(Token t, const float* logits) {
    // One more candidate than the table keeps, so that the last kept one has a rival.
    top_k_tokens(logits, n_vocab_, std::max(k_ + 1, kConfidenceCandidates), best_);
    candidate_shares(best_, shares_);
    RecycledSuccessor* r = row(t);
    for (int j = 0; j < k_; ++j) {
      r[j].token = best_[static_cast<size_t>(j)].second;
      r[j].confidence = static_cast<float>(shares_[static_cast<size_t>(j)]);
    }
  }

  int n_vocab_;
  std::vector<TemplateNode> tmpl_;
  int k_ = 1;
  std::vector<RecycledSuccessor> own_table_;   // the table when none is shared
  std::vector<RecycledSuccessor>& table_;      // [token][rank] -> successor
  std::vector<int> node_of_;                   // template node -> tree node this step
  std::vector<std::pair<float, Token>> best_;  // scratch for top-k
  std::vector<double> shares_;                 // scratch: best_'s softmax shares
};

}  // namespace

std::unique_ptr<Speculator> make_recycling_speculator(
    int n_vocab, std::vector<TemplateNode> tmpl, std::vector<RecycledSuccessor>* shared_table) {
  return std::make_unique<RecyclingSpeculator>(n_vocab, std::move(tmpl), shared_table);
}

}  // namespace reader
