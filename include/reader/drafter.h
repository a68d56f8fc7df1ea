// Drafting: who proposes the draft tree each step.
//
// A Speculator is the cheap "model-based" part (Token Recycling, a draft model): it
// grows a short, bushy tree below the root. The ReaderDrafter puts READER's retrieval on
// top: widening (one deep SearchPath branch at the root, from the short-term trie and
// the long-term datastore) and deepening (a SearchPath seeded with the speculator's best
// branch, attached where it was seeded).
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "reader/acceptance_refiner.h"
#include "reader/draft_tree.h"
#include "reader/drafter_interface.h"
#include "reader/output_memory.h"
#include "reader/search.h"
#include "reader/tokens.h"
#include "reader/tree_policy.h"
#include "reader/trie.h"

namespace reader {

class Model;

class Speculator {
 public:
  virtual ~Speculator() = default;
  virtual std::string_view name() const = 0;
  // Called once with the prompt before generation.
  virtual void begin(TokenSpan prompt) = 0;
  // Grows nodes below the root of `tree`; `context` = committed tokens incl. the root.
  virtual void draft(TokenSpan context, DraftTree& tree) = 0;
  // Sees the verifier's logits for every node of the tree just verified.
  virtual void observe(const DraftTree& tree, const NodeLogits& logits) = 0;
  // Tokens committed this step (the accepted path and the bonus token), in order.
  virtual void commit(TokenSpan committed) = 0;
  // Nodes it adds at most (its template size), without the root.
  virtual int max_nodes() const = 0;
  // What drafting one layer of its tree costs, in the target's one-token decodes: 0 for
  // table lookups, a decode of the draft model for a draft model. The drafter runs a
  // costly speculator only when the chain it could draft is expected to pay for it.
  virtual double layer_cost() const { return 0; }
};

// Shape of a Token Recycling / draft-model tree: node i hangs under `parent` (-1: the
// root) and holds the parent's rank-th most likely successor.
struct TemplateNode {
  int parent = -1;  // earlier template node, or -1 for the root
  int rank = 0;     // which successor of the parent (0 = most likely)
};

// Everything that fixes the tree a method drafts; loadable from a JSON file (--tree).
struct TreeShape {
  std::vector<TemplateNode> speculator;  // speculator template (parents first)
  int d_search = 8;                      // depth of the widening path (0: no widening)
  int d_deep = 4;                        // depth of the deepening path (0: no deepening)
  int d_copy = 0;     // depth of the copy path (context_copy.h; 0: none, as in shapes before it)
  int deepen_at = 2;  // depth of the speculator node that seeds deepening (paper: min(2, d_draft))
  int max_suffix_len = 8;  // context suffix the searches match (L)
  bool adaptive = true;    // prune to the tree worth verifying (Theorem 1, tree_policy.h)
  // With adaptive: verify only the best root-to-leaf path of the candidate tree. Paths
  // keep llama.cpp's CPU kernels bitwise equal to one-token decodes; sibling cells in
  // one batch do not (README, "Losslessness and rounding").
  bool single_path = true;
  int budget() const;  // nodes at most, root included
  // Throws std::invalid_argument naming the problem (bad parent, rank, budget...).
  void validate(int max_branches) const;
  // validate() for a model with n_seq_max sequence ids: a single path is verified in its
  // sequence's own id and needs no branch ids; whole trees need one per leaf, where they are
  // verified whole: a cache with one stream per sequence (not `unified`) verifies one path a
  // step whatever the shape (engine.cpp).
  void validate_for(int n_seq_max, bool unified) const {
    validate((single_path && adaptive) || !unified ? 1 << 20 : n_seq_max - 1);
  }
};
TreeShape load_tree_shape(const std::filesystem::path& path);  // throws with a clear message
// The same from JSON text; `where` names its origin in error messages.
TreeShape parse_tree_shape(std::string_view json_text, const std::string& where);
std::string tree_shape_to_json(const TreeShape& shape);

// How many of a logit row's top candidates a speculator's confidence is a softmax share
// among: a full softmax would cost a pass of exp() over the vocabulary for every row, and the
// tail it leaves out only matters when no candidate stands out.
inline constexpr int kConfidenceCandidates = 4;

// One entry of Token Recycling's table: a successor the model once ranked after a token.
struct RecycledSuccessor {
  Token token = -1;        // -1: never seen
  float confidence = 0.f;  // its softmax share among that logit row's top candidates
};

// Token Recycling's successor rows. `by_token` is the paper's table: each token's top-k
// successors, the last time the model saw that token anywhere. `by_context` keys rows by
// the token and the one or two tokens before it, so that a token whose successor depends on
// what precedes it ("(" in code, "=" in arithmetic) is not answered from another context.
struct RecyclingTable {
  int k = 0;                                // successors per row (a speculator of another k
                                            // starts the table afresh)
  std::vector<RecycledSuccessor> by_token;  // [token][rank]
  std::unordered_map<uint64_t, uint32_t> context_rows;  // context key -> first entry of its row
  std::vector<RecycledSuccessor> by_context;            // [row][rank]
};

// Token Recycling (Luo et al. 2024): every token's top-k successors, refreshed from
// every verification's logits; the tree is the template expanded from the root. Each
// node's score is the product of its path's confidences: how sure the model was, the
// last time it saw these tokens, that each one follows the previous.
// `context_tokens`: how many tokens a row is looked up by, the node's own included: 1 is the
// paper's table; 2 or 3 try the longest context seen first and fall back to shorter ones
// (more than 3 counts as 3; a vocabulary of 2^20 tokens or more keeps the per-token table).
// `shared_table` (optional): successor rows several speculators read and update.
std::unique_ptr<Speculator> make_recycling_speculator(int n_vocab, std::vector<TemplateNode> tmpl,
                                                      int context_tokens = 1,
                                                      RecyclingTable* shared_table = nullptr);
// What READER's speculator keys its rows by (the paper's Token Recycling, `--method
// recycling`, keeps 1): on the decision slices the same text cost 1.9% less verification
// with 3 than with 1; 2 saved nothing, and 4 or 6 no more than 3 (docs/calibration.md, session 29).
// Changing it changes what the speculator's calibration counts mean: change kDrafter
// (profile.h) with it, so that `tune --if-stale` counts again.
inline constexpr int kReaderRecyclingContext = 3;
// A smaller model with the same vocabulary drafting the template layer by layer;
// `decode_cost`: its one-token decode over the target's (relative_decode_cost, profile.h).
std::unique_ptr<Speculator> make_draft_model_speculator(Model& draft_model,
                                                        std::vector<TemplateNode> tmpl,
                                                        double decode_cost);

// What the drafter knows about this machine and model (profile.h): the verification cost
// and the acceptance priors. Calibration mode is `reader tune`'s: every candidate node is
// verified (no pruning) and acceptance is counted per kind of node.
// What the drafters of one server share across requests (used from the engine's thread):
// earlier responses to search, and Token Recycling's successor table, which keeps
// learning across requests as it does across prompts of one Generator.
struct SharedDraftState {
  OutputMemory memory;             // finished responses, newest kept
  RecyclingTable recycling_table;  // Token Recycling's rows, shared by every request
  StepCostTracker step_costs;      // what verification steps cost here lately
};

struct DraftPolicy {
  CostModel cost = fallback_cost_model();                              // c(n, L) here
  std::vector<double> priors = acceptance_priors(AcceptanceCounts{});  // prior q per kind
  std::vector<double> priors_sampled;  // the same under sampling (empty: `priors` serve)
  bool calibrate = false;              // verify whole candidate trees and count (reader tune)
  // Correct `cost` by the step times the engine reports (StepCostTracker); false: `cost` as is.
  bool adapt_cost = true;
  // Search earlier outputs of the same Generator too (the paper: "this datastore can be
  // built online by appending generated responses"; SuffixDecoding's global tree).
  bool remember_outputs = true;
  // Whether a token ends generation (the model's EOS, end of turn...): nothing drafted after
  // one can ever be committed, so it is never verified. Null: no token does.
  std::function<bool(Token)> ends_generation;
  // Shared across drafters (the server); null: this drafter keeps its own history.
  SharedDraftState* shared = nullptr;
  // Second opinions on the estimates the policy weighs (acceptance_refiner.h), greedy and
  // under sampling; empty: the estimates as they are.
  AcceptanceRefiner refiner;
  AcceptanceRefiner refiner_sampled;
  // Where each step's candidates go to fit a refiner (reader tune); null: nowhere. While
  // collecting, the estimates are weighed unrefined.
  RefinerCollector* collect = nullptr;
  // What kind of text each token is, for the refiner's features (the model's vocabulary);
  // null: no token's kind is known. The drafter asks once per token.
  TokenClassOf token_class;
};

// The READER drafter: speculator (optional) + widening + deepening + copy.
class ReaderDrafter : public Drafter {
 public:
  // `speculator` may be null (retrieval only); `datastore` may be null (trie only).
  ReaderDrafter(TreeShape shape, std::unique_ptr<Speculator> speculator,
                const NextTokenSource* datastore, bool use_retrieval, DraftPolicy policy = {});
  void begin(TokenSpan prompt) override;
  // Switches to the sampled (or greedy) priors; what this text taught starts afresh then.
  void set_sampling(bool sampled) override;
  // Builds the tree for the committed `context` (ending with the root token).
  DraftTree draft(TokenSpan context, int budget_cap) override;
  void observe(const DraftTree& tree, const NodeLogits& logits) override;
  void observe_step_time(int tokens, double ms) override;
  // Which nodes of the last drafted tree were accepted (teaches the acceptance model).
  void feedback(const DraftTree& tree, const std::vector<int>& accepted_nodes) override;
  void commit(TokenSpan committed) override;
  void finish(TokenSpan prompt, TokenSpan output) override;
  void set_reference(Tokens reference) override { reference_ = std::move(reference); }
  void set_batched(bool batched) override { batched_ = batched; }
  void set_whole_trees(bool whole_trees) override { whole_trees_ = whole_trees; }
  void set_trace(DraftTrace* trace) override { trace_ = trace; }
  const TreeShape& shape() const { return shape_; }
  const ShortTermTrie& trie() const { return trie_; }
  // Calibration mode: acceptance counted per kind of node since construction.
  const AcceptanceCounts& calibration_counts() const { return calibration_; }

 private:
  // One proposal of a node by one drafting source (a node may be proposed by several).
  struct Proposal {
    int node = 0;     // index in the drafted tree
    NodeKind kind;    // who proposed it, with what evidence
    double q = -1.0;  // acceptance_'s estimate when drafted (-1: not estimated)
  };
  TreeShape shape_;
  std::unique_ptr<Speculator> speculator_;
  const NextTokenSource* datastore_;
  bool use_retrieval_;
  ShortTermTrie trie_;        // this prompt and its output so far
  ShortTermTrie history_;     // earlier outputs (bounded: cleared when its node budget fills)
  bool remember_outputs_;     // feed finished outputs into history_ (or shared_->memory)
  SharedDraftState* shared_;  // cross-request state, or null
  std::function<bool(Token)> ends_generation_;   // DraftPolicy::ends_generation
  Tokens reference_;                             // predicted output, inserted into trie_ by begin()
  std::vector<const NextTokenSource*> sources_;  // trie_ first, then datastore, history_
  Tokens scratch_context_;
  CostModel cost_;                       // verification cost on this machine
  StepCostTracker own_step_costs_;       // steps' times, where no SharedDraftState holds them
  StepCostTracker* step_costs_;          // the tracker that prices steps; null: cost_ alone
  std::optional<CostCurve> last_curve_;  // cost_ at the last unbatched draft's context
  AcceptanceModel acceptance_;           // q(node | parent accepted): priors + this run
  // Whether a speculator whose layers cost decodes is worth running this step.
  bool speculator_pays(const CostCurve& cost);
  // This generation's shift of the estimates, one for the speculator's nodes and one for
  // retrieval's: the two miss their calibration independently (a text unlike the
  // calibration prompts can defeat recycled successors while its copies still hold).
  std::array<AcceptanceRecalibration, 2> recalibration_;
  AcceptanceRecalibration& recalibration(const NodeKind& k) {
    return recalibration_[k.source == DraftSource::kSpeculator ? 0 : 1];
  }
  // What the policy weighs a node of `kind` by, from acceptance_'s `estimate` for it: shifted
  // by this text's recalibration, then low estimates doubted (tree_policy.h).
  double policy_estimate(const NodeKind& kind, double estimate) {
    return doubt_low_estimate(recalibration(kind).adjust(estimate));
  }
  TokenRecord token_record_;            // this text's retrieval tokens, judged (tree_policy.h)
  std::vector<double> priors_;          // greedy priors
  std::vector<double> priors_sampled_;  // priors under sampling (empty: priors_)
  bool sampled_ = false;                // acceptance_ holds the sampled priors
  bool calibrate_;                      // reader tune: no pruning, count everything
  AcceptanceRefiner refiner_;           // DraftPolicy::refiner
  AcceptanceRefiner refiner_sampled_;   // DraftPolicy::refiner_sampled
  TokenClassOf token_class_;            // DraftPolicy::token_class, remembering its answers
  RefinerCollector* collect_;           // DraftPolicy::collect
  TextPace pace_;                       // this text's tokens per step, for the refiner
  bool prefill_commit_ = false;         // the next commit is the prefill's token, not a step's
  bool batched_ = false;                // the engine trims the draft for a shared decode
  bool whole_trees_ = true;             // the next decode can verify a whole tree
  AcceptanceCounts calibration_;        // counts collected in calibration mode
  std::vector<Proposal> proposals_;     // every proposal behind the last drafted tree
  std::vector<int> copied_existing_;    // nodes the copy drafted after another source
  DraftTrace* trace_ = nullptr;         // where each step's choice is written, or null

  void add_retrieval_path(DraftTree& tree, int parent, TokenSpan context, int depth,
                          DraftSource source);
  void add_copy_path(DraftTree& tree, TokenSpan context);
  // Gives the speculator's nodes that another source also drafted Agreement::kBoth.
  void mark_speculator_agreement(const DraftTree& tree);
};

}  // namespace reader
