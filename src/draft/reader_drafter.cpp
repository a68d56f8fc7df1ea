// ReaderDrafter: speculator tree, then READER's widening and deepening (Algorithm 1) and the
// copy path, then pruning to the tree worth verifying on this machine (Theorem 1).
#include <algorithm>

#include "reader/context_copy.h"
#include "reader/draft_trace.h"
#include "reader/drafter.h"

namespace reader {
namespace {

// A share of the evidence (counts, or probability mass) in kShareBuckets buckets.
constexpr int kShareBuckets = 4;
int share_bucket(double share) { return share < 0.3 ? 0 : share < 0.6 ? 1 : share < 0.9 ? 2 : 3; }

// Share of a level's counts the drafted token holds.
int strength_bucket(const SearchStep& s) {
  return share_bucket(s.total ? static_cast<double>(s.count) / static_cast<double>(s.total) : 0.0);
}

// A speculator node's own confidence given its parent: its score is its path's product.
int speculator_strength(const DraftTree& tree, int node) {
  const int parent = tree.parent(node);
  const double above =
      parent > 0 && tree.source(parent) == DraftSource::kSpeculator ? tree.score(parent) : 1.0;
  return share_bucket(above > 0 ? tree.score(node) / above : 0.0);
}

// Retrieval's nodes (widening, deepening, copy) copy tokens, which this text's TokenRecord judges;
// the speculator's guesses come from a model's logits and are left to their kind's rate.
bool judged_by_token_record(const NodeKind& kind) {
  return kind.source != DraftSource::kSpeculator;
}

}  // namespace

ReaderDrafter::ReaderDrafter(TreeShape shape, std::unique_ptr<Speculator> speculator,
                             const NextTokenSource* datastore, bool use_retrieval,
                             DraftPolicy policy)
    : shape_(std::move(shape)),
      speculator_(std::move(speculator)),
      datastore_(datastore),
      use_retrieval_(use_retrieval),
      trie_(TrieOptions{std::max(16, shape_.max_suffix_len + 1), 1u << 22}),
      history_(TrieOptions{std::max(16, shape_.max_suffix_len + 1), 1u << 21}),
      remember_outputs_(policy.remember_outputs),
      shared_(policy.shared),
      ends_generation_(std::move(policy.ends_generation)),
      cost_(std::move(policy.cost)),
      step_costs_(!policy.adapt_cost ? nullptr
                  : policy.shared    ? &policy.shared->step_costs
                                     : &own_step_costs_),
      acceptance_(policy.priors),
      priors_(std::move(policy.priors)),
      priors_sampled_(std::move(policy.priors_sampled)),
      calibrate_(policy.calibrate),
      refiner_(std::move(policy.refiner)),
      refiner_sampled_(std::move(policy.refiner_sampled)),
      collect_(policy.collect) {
  if (policy.token_class)
    token_class_ = [ask = std::move(policy.token_class),
                    known = std::vector<std::int16_t>()](Token t) mutable {
      const auto i = static_cast<size_t>(t);
      if (t < 0) return ask(t);
      if (i >= known.size()) known.resize(i + 1, -1);
      if (known[i] < 0) known[i] = ask(t);
      return static_cast<std::uint8_t>(known[i]);
    };
  sources_.push_back(&trie_);
  if (datastore_) sources_.push_back(datastore_);
  if (remember_outputs_) sources_.push_back(shared_ ? &shared_->memory.trie() : &history_);
}

void ReaderDrafter::begin(TokenSpan prompt) {
  if (step_costs_) step_costs_->start();
  recalibration_ = {};  // a new text: its own shifts and its own tokens' record
  token_record_.clear();
  pace_ = {};
  prefill_commit_ = true;
  if (collect_) collect_->discard();
  trie_.clear();
  trie_.append(prompt);
  if (trace_) trace_->prompt(prompt);
  if (!reference_.empty()) trie_.insert(reference_);
  if (speculator_) speculator_->begin(prompt);
}

void ReaderDrafter::set_sampling(bool sampled) {
  if (sampled == sampled_) return;
  sampled_ = sampled;
  acceptance_ = AcceptanceModel(sampled && !priors_sampled_.empty() ? priors_sampled_ : priors_);
}

void ReaderDrafter::add_retrieval_path(DraftTree& tree, int parent, TokenSpan context, int depth,
                                       DraftSource source) {
  SearchOptions opts;
  opts.max_suffix_len = shape_.max_suffix_len;
  opts.depth = depth;
  for (const SearchStep& step : search_path_steps(context, opts, sources_)) {
    parent = tree.add(parent, step.token, source);
    if (parent < 0) break;
    // Source 0 is this text's trie, the others are long-term.
    const bool text = (step.agreeing & 1u) != 0, long_term = (step.agreeing & ~1u) != 0;
    const Agreement agreement = text ? (long_term ? Agreement::kBoth : Agreement::kText)
                                     : (long_term ? Agreement::kLongTerm : Agreement::kNeither);
    proposals_.push_back({parent, {source, step.match_len, strength_bucket(step), agreement}});
  }
}

void ReaderDrafter::add_copy_path(DraftTree& tree, TokenSpan context) {
  // A match of 32 tokens is as sure as copies get; 8192 tokens back bounds the scan (~10 us).
  constexpr int kMaxMatch = 32, kWindow = 8192;
  const ContextCopy copy = find_context_copy(context, kMaxMatch, shape_.d_copy, kWindow);
  int parent = 0;
  for (size_t i = 0; i < copy.tokens.size(); ++i) {
    const int before = tree.size();
    const int node = tree.add(parent, copy.tokens[i], DraftSource::kCopy);
    if (node < 0) break;
    // Where another source drafted the same token, its estimate stands: a second opinion
    // taken as a maximum only raised it (mt_bench drafted 9% more for the same tokens).
    if (node == before)
      proposals_.push_back({node,
                            {DraftSource::kCopy, copy.match_len,
                             std::min<int>(static_cast<int>(i), 3), Agreement::kText}});
    else
      copied_existing_.push_back(node);
    parent = node;
  }
}

void ReaderDrafter::mark_speculator_agreement(const DraftTree& tree) {
  // A speculator guess that retrieval or the copy drafted too is its own kind: two sources
  // that agree are right more often than either alone, and calibration counts them apart.
  std::vector<char> other(static_cast<size_t>(tree.size()), 0);
  for (const Proposal& p : proposals_)
    if (p.kind.source != DraftSource::kSpeculator) other[static_cast<size_t>(p.node)] = 1;
  for (int node : copied_existing_) other[static_cast<size_t>(node)] = 1;
  for (Proposal& p : proposals_)
    if (p.kind.source == DraftSource::kSpeculator && other[static_cast<size_t>(p.node)])
      p.kind.agreement = Agreement::kBoth;
}

bool ReaderDrafter::speculator_pays(const CostCurve& cost) {
  const double layer = speculator_->layer_cost();
  if (layer <= 0) return true;
  // Its best chain, each depth as sure as its surest confidence bucket, seconded or not (an
  // upper bound on what it would draft), must pay for verifying it and for a drafting decode per
  // token.
  double alpha = 1, tokens = 1;
  for (int depth = 1; depth <= speculator_->max_nodes(); ++depth) {
    double q = 0;
    for (int bucket = 0; bucket < kShareBuckets; ++bucket)
      for (const bool seconded : {false, true}) {
        const NodeKind kind = speculator_kind(depth, 0, bucket, seconded);
        q = std::max(q, policy_estimate(kind, acceptance_.estimate(kind)));
      }
    alpha *= q;
    tokens += alpha;
    if (tokens > cost(depth + 1) + depth * layer) return true;
  }
  return false;
}

DraftTree ReaderDrafter::draft(TokenSpan context, int budget_cap) {
  DraftTree tree(context.back(), std::min(shape_.budget(), budget_cap));
  proposals_.clear();
  copied_existing_.clear();
  // Batched, a sequence's extra tokens cost what the batch's passes cost, which the engine
  // judges for all sequences at once: pick the path by expected tokens alone, keep all of it.
  static const CostCurve kFree({{1, 1.0}, {2, 1.0}});
  if (!batched_) last_curve_ = cost_.at(static_cast<int>(context.size()));
  const CostCurve cost = batched_      ? kFree
                         : step_costs_ ? step_costs_->priced(*last_curve_)
                                       : *last_curve_;
  if (speculator_ && (calibrate_ || speculator_pays(cost))) {
    speculator_->draft(context, tree);
    for (int i = 1; i < tree.size(); ++i) {  // kind: depth and rank among siblings
      int rank = 0;
      for (int c = tree.first_child(tree.parent(i)); c != i && c >= 0; c = tree.next_sibling(c))
        ++rank;
      proposals_.push_back({i, speculator_kind(tree.depth(i), rank, speculator_strength(tree, i))});
    }
  }
  if (use_retrieval_) {
    // Widening: one deep retrieval path attached at the root.
    if (shape_.d_search > 0 && !tree.full())
      add_retrieval_path(tree, 0, context, shape_.d_search, DraftSource::kWidening);
    // Deepening: extend the speculator's best branch from depth min(deepen_at, its depth).
    if (speculator_ && shape_.d_deep > 0 && !tree.full()) {
      int node = 0;
      for (int next = tree.first_child(0); next > 0 && tree.depth(next) <= shape_.deepen_at &&
                                           tree.source(next) == DraftSource::kSpeculator;
           next = tree.first_child(next))
        node = next;
      if (node > 0) {
        // Only the last max_suffix_len tokens can be matched: copy just those.
        const auto tail = std::min<std::ptrdiff_t>(static_cast<std::ptrdiff_t>(context.size()),
                                                   shape_.max_suffix_len);
        scratch_context_.assign(context.end() - tail, context.end());
        const Tokens prefix = tree.path_to(node);
        scratch_context_.insert(scratch_context_.end(), prefix.begin(), prefix.end());
        add_retrieval_path(tree, node, scratch_context_, shape_.d_deep, DraftSource::kDeepening);
      }
    }
    // Copy: the text's latest repeat, followed where it occurred (context_copy.h).
    if (shape_.d_copy > 0 && !tree.full()) add_copy_path(tree, context);
    mark_speculator_agreement(tree);
  }
  if (calibrate_ || !shape_.adaptive || tree.size() == 1) {
    if (trace_) trace_->step(context.size(), tree, {}, cost, {});  // all of it, not weighed
    return tree;
  }

  // Keep only what is worth verifying here (Theorem 1 with the cost at this context length).
  // A node several sources proposed is as likely as the most confident of them says.
  std::vector<double> q(static_cast<size_t>(tree.size()), 0.0);
  q[0] = 1.0;
  for (Proposal& p : proposals_) {
    p.q = acceptance_.estimate(p.kind);
    double estimate = policy_estimate(p.kind, p.q);
    if (judged_by_token_record(p.kind))
      estimate = token_record_.adjust(tree.token(p.node), estimate);
    q[static_cast<size_t>(p.node)] = std::max(q[static_cast<size_t>(p.node)], estimate);
  }
  // The refiner's second opinion, or the candidates collected to fit one. Its estimates are
  // weighed as they are: doubting the low ones as well drafted 9% fewer tokens and was no
  // faster (docs/results/issue8/session45).
  const AcceptanceRefiner& refiner = sampled_ ? refiner_sampled_ : refiner_;
  if (collect_ || !refiner.empty()) {
    std::vector<RefinerFeatures> features =
        refiner_features(tree, q, context, trie_, pace_, token_class_);
    if (collect_)
      collect_->step(static_cast<int>(context.size()) - 1, tree, std::move(features));
    else
      for (int i = 1; i < tree.size(); ++i)
        q[static_cast<size_t>(i)] = refiner.refine(features[static_cast<size_t>(i)]);
  }
  // A copy can run past the end of a text into the chat template: never after an end.
  if (ends_generation_)
    for (int i = 1; i < tree.size(); ++i)
      if (tree.parent(i) > 0 && ends_generation_(tree.token(tree.parent(i))))
        q[static_cast<size_t>(i)] = 0.0;
  const std::vector<int> keep =
      shape_.single_path || !whole_trees_ ? best_path(tree, q, cost) : best_subtree(tree, q, cost);
  if (trace_) trace_->step(context.size(), tree, q, cost, keep);
  std::vector<int> new_index(static_cast<size_t>(tree.size()), -1);
  for (size_t k = 0; k < keep.size(); ++k)
    new_index[static_cast<size_t>(keep[k])] = static_cast<int>(k);
  std::vector<Proposal> kept;
  for (const Proposal& p : proposals_)
    if (new_index[static_cast<size_t>(p.node)] > 0)
      kept.push_back({new_index[static_cast<size_t>(p.node)], p.kind, p.q});
  proposals_ = std::move(kept);
  DraftTree chosen = restrict_tree(tree, keep);
  // Scores become alpha (the chance the node's whole path is accepted), for the batch policy.
  for (size_t k = 1; k < keep.size(); ++k) {
    const int node = static_cast<int>(k);
    chosen.set_score(node,
                     static_cast<float>(q[static_cast<size_t>(keep[k])]) *
                         (chosen.parent(node) > 0 ? chosen.score(chosen.parent(node)) : 1.0f));
  }
  return chosen;
}

void ReaderDrafter::feedback(const DraftTree& tree, const std::vector<int>& accepted_nodes) {
  std::vector<char> accepted(static_cast<size_t>(tree.size()), 0);
  for (int n : accepted_nodes) accepted[static_cast<size_t>(n)] = 1;
  // Widening and deepening can propose the same node: its token is recorded once.
  std::vector<char> token_recorded(static_cast<size_t>(tree.size()), 0);
  for (const Proposal& p : proposals_) {
    if (p.node <= 0 || p.node >= tree.size()) continue;
    if (!accepted[static_cast<size_t>(tree.parent(p.node))]) continue;  // never tried
    const bool ok = accepted[static_cast<size_t>(p.node)] != 0;
    if (calibrate_) {
      calibration_.add(p.kind, ok);
      continue;
    }
    acceptance_.record(p.kind, ok);
    if (p.q >= 0) recalibration(p.kind).record(p.q, ok);
    if (judged_by_token_record(p.kind) && !token_recorded[static_cast<size_t>(p.node)]) {
      token_recorded[static_cast<size_t>(p.node)] = 1;
      token_record_.record(tree.token(p.node), ok);
    }
  }
  if (!calibrate_)
    for (AcceptanceRecalibration& r : recalibration_) r.refit();
}

void ReaderDrafter::observe_step_time(int tokens, double ms) {
  // Calibration verifies whole candidate trees and a batched step's price is the engine's:
  // neither is a step this drafter's policy chose alone.
  if (!step_costs_ || calibrate_ || batched_ || !last_curve_) return;
  const CostCurve& curve = *last_curve_;
  step_costs_->record(tokens, curve(tokens) - 1.0, ms);
}

void ReaderDrafter::observe(const DraftTree& tree, const NodeLogits& logits) {
  if (speculator_) speculator_->observe(tree, logits);
}

void ReaderDrafter::finish(TokenSpan prompt, TokenSpan output) {
  if (collect_) collect_->finish(prompt, output);
  if (!remember_outputs_) return;
  if (shared_)
    shared_->memory.add(output);
  else
    history_.insert(output);
}

void ReaderDrafter::commit(TokenSpan committed) {
  if (trace_) trace_->commit(committed);
  if (!prefill_commit_) pace_.add_step(static_cast<int>(committed.size()));
  prefill_commit_ = false;
  trie_.append(committed);
  if (speculator_) speculator_->commit(committed);
}

}  // namespace reader
