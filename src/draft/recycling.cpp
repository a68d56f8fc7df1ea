// Token Recycling: tables of successors, refreshed from every verification's logits and
// expanded breadth-first along a static template. Rows are kept per token (the paper's
// table) and, optionally, per token and the tokens before it.
#include <algorithm>
#include <cstdint>

#include "reader/drafter.h"
#include "reader/sampling.h"

namespace reader {
namespace {

// Context rows kept at most; the table starts afresh when full (about 12 MB of rows and index
// at k = 1), as the history trie does.
constexpr size_t kMaxContextRows = size_t{1} << 18;
// A context key packs up to three token ids of this many bits and how many it holds.
constexpr int kKeyTokenBits = 20;
constexpr int kMaxContextTokens = 3;

class RecyclingSpeculator final : public Speculator {
 public:
  RecyclingSpeculator(int n_vocab, std::vector<TemplateNode> tmpl, int context_tokens,
                      RecyclingTable* shared)
      : n_vocab_(n_vocab),
        tmpl_(std::move(tmpl)),
        // Token ids that do not fit a key's fields: the per-token table alone.
        context_tokens_(
            n_vocab < (1 << kKeyTokenBits) ? std::clamp(context_tokens, 1, kMaxContextTokens) : 1),
        table_(shared ? *shared : own_table_) {
    for (const auto& n : tmpl_) k_ = std::max(k_, n.rank + 1);
    // A shared table sized for another template is started afresh at this one's k.
    const size_t size = static_cast<size_t>(n_vocab_) * static_cast<size_t>(k_);
    if (table_.by_token.size() != size || table_.k != k_) {
      table_.by_token.assign(size, RecycledSuccessor{});
      table_.k = k_;
      clear_context_rows();
    }
  }
  std::string_view name() const override { return "recycling"; }
  int max_nodes() const override { return static_cast<int>(tmpl_.size()); }
  void begin(TokenSpan) override {}  // the table carries over between prompts, as in the paper
  void commit(TokenSpan) override {}

  void draft(TokenSpan context, DraftTree& tree) override {
    // The tokens before the root, nearest first: the context rows of nodes near the root
    // look back into them.
    context_before_root_.clear();
    drafted_root_ = context.empty() ? -1 : context.back();
    for (size_t j = 2; j <= context.size() && j <= static_cast<size_t>(context_tokens_); ++j)
      context_before_root_.push_back(context[context.size() - j]);
    node_of_.assign(tmpl_.size(), -1);
    for (size_t i = 0; i < tmpl_.size(); ++i) {
      const int parent = tmpl_[i].parent < 0 ? 0 : node_of_[static_cast<size_t>(tmpl_[i].parent)];
      if (parent < 0) continue;  // parent missing: its subtree is skipped
      const RecycledSuccessor& s = successors(tree, parent)[tmpl_[i].rank];
      if (s.token < 0) continue;
      const float path = parent == 0 ? 1.0f : tree.score(parent);
      node_of_[i] = tree.add(parent, s.token, DraftSource::kSpeculator, path * s.confidence);
    }
  }

  void observe(const DraftTree& tree, const NodeLogits& logits) override {
    // A tree verified without a draft() of this root (a step the drafter skipped the
    // speculator in, a saturated batch) has no known context before its root: only the
    // contexts inside the tree are keyed.
    if (drafted_root_ != tree.token(0)) context_before_root_.clear();
    for (int i = 0; i < tree.size(); ++i) update(tree, i, logits(i));
    drafted_root_ = -1;
  }

 private:
  RecycledSuccessor* token_row(Token t) {
    return &table_.by_token[static_cast<size_t>(t) * static_cast<size_t>(k_)];
  }

  // Node i's token and up to context_tokens_ - 1 tokens before it (up the tree, then the
  // context before the root), as context keys from the longest to the token alone.
  int context_keys(const DraftTree& tree, int i, uint64_t* keys) const {
    Token before[kMaxContextTokens - 1];
    int n = 0;
    for (int at = i; n < context_tokens_ - 1 && at > 0; ++n) {
      at = tree.parent(at);
      before[n] = tree.token(at);
    }
    for (size_t j = 0; n < context_tokens_ - 1 && j < context_before_root_.size(); ++j)
      before[n++] = context_before_root_[j];
    uint64_t key = static_cast<uint32_t>(tree.token(i));
    for (int j = 0; j < n; ++j) {  // a key per length, the longest first
      key |= static_cast<uint64_t>(static_cast<uint32_t>(before[j])) << (kKeyTokenBits * (j + 1));
      keys[n - 1 - j] = key | static_cast<uint64_t>(j + 1) << (kKeyTokenBits * kMaxContextTokens);
    }
    return n;
  }

  // Node `parent`'s successors: the last time the model saw its token after the same tokens
  // as here (the longest such context kept), else after any token.
  const RecycledSuccessor* successors(const DraftTree& tree, int parent) {
    uint64_t keys[kMaxContextTokens - 1];
    const int n = context_keys(tree, parent, keys);
    for (int j = 0; j < n; ++j)
      if (const auto it = table_.context_rows.find(keys[j]); it != table_.context_rows.end())
        return &table_.by_context[it->second];
    return token_row(tree.token(parent));
  }

  void update(const DraftTree& tree, int i, const float* logits) {
    // One more candidate than the table keeps, so that the last kept one has a rival.
    top_k_tokens(logits, n_vocab_, std::max(k_ + 1, kConfidenceCandidates), best_);
    candidate_shares(best_, shares_);
    RecycledSuccessor* r = token_row(tree.token(i));
    for (int j = 0; j < k_; ++j) {
      r[j].token = best_[static_cast<size_t>(j)].second;
      r[j].confidence = static_cast<float>(shares_[static_cast<size_t>(j)]);
    }
    uint64_t keys[kMaxContextTokens - 1];
    const int n = context_keys(tree, i, keys);
    for (int j = 0; j < n; ++j) {
      if (table_.context_rows.size() >= kMaxContextRows && !table_.context_rows.contains(keys[j]))
        clear_context_rows();
      // One hash per key: a new key takes the next row.
      const auto [it, added] =
          table_.context_rows.try_emplace(keys[j], static_cast<uint32_t>(table_.by_context.size()));
      if (added) table_.by_context.resize(table_.by_context.size() + static_cast<size_t>(k_));
      std::copy(r, r + k_, table_.by_context.begin() + it->second);
    }
  }

  void clear_context_rows() {
    table_.context_rows.clear();
    table_.by_context.clear();
  }

  int n_vocab_;
  std::vector<TemplateNode> tmpl_;
  int context_tokens_;  // tokens a row is looked up by, the node's own included (1: per token)
  int k_ = 1;
  RecyclingTable own_table_;                   // the table when none is shared
  RecyclingTable& table_;                      // own_table_ or the shared one
  std::vector<Token> context_before_root_;     // this step's context before the root, nearest first
  Token drafted_root_ = -1;                    // the root draft() last saw, until observed
  std::vector<int> node_of_;                   // template node -> tree node this step
  std::vector<std::pair<float, Token>> best_;  // scratch for top-k
  std::vector<double> shares_;                 // scratch: best_'s softmax shares
};

}  // namespace

std::unique_ptr<Speculator> make_recycling_speculator(int n_vocab, std::vector<TemplateNode> tmpl,
                                                      int context_tokens,
                                                      RecyclingTable* shared_table) {
  return std::make_unique<RecyclingSpeculator>(n_vocab, std::move(tmpl), context_tokens,
                                               shared_table);
}

}  // namespace reader
