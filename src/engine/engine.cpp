// The batched engine (engine.h), one step read top to bottom:
//   cancellations -> admit waiting requests into free sequence ids -> draft for every
//   running sequence -> trim drafts by the batch's cost -> add prompt chunks of joining
//   sequences -> ONE decode -> per sequence: accept, emit, commit KV and drafter state.
#include "reader/engine.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <optional>
#include <stdexcept>
#include <tuple>

#include "engine/batch_policy.h"
#include "engine/output_stream.h"
#include "reader/verify.h"

namespace reader {
namespace {
using Clock = std::chrono::steady_clock;
// Drafters' trees hold a few dozen nodes (TreeShape::budget): room for a step is room for 64.
constexpr int kMaxStepNodes = 64;
// Whole trees that will need their holes closed go on only while this much of the context is
// left (see Engine::step).
constexpr int kMinCellsToCompact = 256;
// The most a compaction may copy (the sequence's cells at a full context, all layers).
constexpr size_t kMaxCompactionBytes = size_t{1} << 30;
double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}
size_t common_prefix(TokenSpan a, TokenSpan b) {
  const size_t n = std::min(a.size(), b.size());
  size_t i = 0;
  while (i < n && a[i] == b[i]) ++i;
  return i;
}
// Adds `amount` (one more step, by default) to bin `k` of a histogram that grows as needed.
template <class T>
void count_in(std::vector<T>& histogram, int k, T amount = T{1}) {
  if (std::ssize(histogram) <= k) histogram.resize(static_cast<size_t>(k) + 1);
  histogram[static_cast<size_t>(k)] += amount;
}
}  // namespace

// Everything one request needs while it runs.
struct Engine::Sequence {
  RequestId id = 0;
  Request request;
  Drafter* drafter = nullptr;  // request.drafter or the owned one; null: autoregressive
  int slot = -1;               // KV sequence id while running
  Tokens context;              // prompt + committed output (ends with the root when decoding)
  int prefilled = 0;           // prompt tokens whose cells are in the slot
  bool decoding = false;       // prompt done and first token out
  int root_pos = 0;            // position of the root (not yet in the KV cache)
  std::optional<Sampler> sampler;
  std::optional<OutputStream> out;
  GenerationStats stats;
  Clock::time_point t_start;        // admitted (prefill starts)
  Clock::time_point t_first;        // first token out
  std::optional<bool> compactable;  // its holes may be closed (Model::kv_compact): decided once
  // This step's share of the batch.
  std::optional<DraftTree> tree;  // the draft being verified
  TreeLayout layout;              // its sequence ids
  int first_branch = 0;           // branch ids borrowed this step
  int first_row = -1;             // its first row in the batch
  int prefill_rows = 0;           // prompt tokens added this step
};

Engine::Engine(Model& model, EngineOptions options) : model_(model), options_(options) {
  if (options_.max_sequences < 1 || options_.max_sequences > model.n_seq_max())
    throw std::invalid_argument("the engine needs 1.." + std::to_string(model.n_seq_max()) +
                                " sequences, got " + std::to_string(options_.max_sequences));
  if (options_.max_waiting < 0) throw std::invalid_argument("max_waiting must be >= 0");
  if (options_.prefill_chunk < 1) throw std::invalid_argument("prefill_chunk must be >= 1");
  model_.kv_clear();
  slots_.resize(static_cast<size_t>(options_.max_sequences));
  cached_.resize(static_cast<size_t>(options_.max_sequences));
}

Engine::~Engine() = default;

RequestId Engine::submit(Request request) {
  check_prompt(model_, request.prompt);
  check_sampling(request.options.sampling);
  auto seq = std::make_unique<Sequence>();
  seq->drafter = request.drafter ? request.drafter : request.owned_drafter.get();
  seq->request = std::move(request);
  std::lock_guard lock(inbox_mutex_);
  // Requests that a free sequence will take at the next step do not count as waiting.
  const int free_slots = options_.max_sequences - occupied_;
  if (static_cast<int>(waiting_.size()) >= options_.max_waiting + free_slots)
    throw EngineFull("the queue is full (" + std::to_string(options_.max_waiting) +
                     " requests waiting)");
  seq->id = next_id_++;
  const RequestId id = seq->id;
  waiting_.push_back(std::move(seq));
  stats_.waiting = static_cast<int>(waiting_.size());
  return id;
}

void Engine::cancel(RequestId id) {
  std::lock_guard lock(inbox_mutex_);
  cancels_.push_back(id);
}

void Engine::apply_cancellations() {
  std::vector<RequestId> ids;
  std::vector<std::unique_ptr<Sequence>> dropped;  // cancelled before they ran
  {
    std::lock_guard lock(inbox_mutex_);
    ids.swap(cancels_);
    for (RequestId id : ids) {
      auto it = std::find_if(waiting_.begin(), waiting_.end(),
                             [&](const auto& s) { return s->id == id; });
      if (it == waiting_.end()) continue;
      dropped.push_back(std::move(*it));
      waiting_.erase(it);
    }
  }
  for (auto& seq : dropped) {
    GenerationResult result;
    result.stop_reason = StopReason::kCancelled;
    result.stats.prompt_tokens = static_cast<int>(seq->request.prompt.size());
    if (seq->request.on_done) seq->request.on_done(std::move(result));
  }
  for (RequestId id : ids)
    for (auto& slot : slots_)
      if (slot && slot->id == id) finish(*slot, /*cancelled=*/true);
}

void Engine::admit() {
  for (;;) {
    // The free slot whose cached cells share the longest prefix with the next prompt.
    std::unique_ptr<Sequence> seq;
    {
      std::lock_guard lock(inbox_mutex_);
      if (waiting_.empty()) return;
      if (std::none_of(slots_.begin(), slots_.end(), [](const auto& s) { return !s; })) return;
      seq = std::move(waiting_.front());
      waiting_.pop_front();
      ++occupied_;
    }
    const Tokens& prompt = seq->request.prompt;
    // Running neighbours of slot s: llama.cpp puts only consecutive sequence ids of its
    // per-sequence KV streams in one pass (split_equal), so a slot next to running ones keeps
    // the step one forward pass, and one between two of them joins two passes into one.
    const auto neighbours = [&](size_t s) {
      return (s > 0 && slots_[s - 1] ? 1 : 0) + (s + 1 < slots_.size() && slots_[s + 1] ? 1 : 0);
    };
    // The longest cached prefix first (its cells need no prefill); among equals (often just
    // the chat template's system prompt) the slot with most running neighbours, then the one
    // caching least, so other caches survive longer. The first such slot wins.
    int best = -1;
    std::tuple<size_t, int, std::ptrdiff_t> best_key;
    for (size_t s = 0; s < slots_.size(); ++s) {
      if (slots_[s]) continue;
      const size_t common = options_.reuse_prefix ? common_prefix(cached_[s], prompt) : 0;
      const std::tuple<size_t, int, std::ptrdiff_t> key{
          common, neighbours(s), -static_cast<std::ptrdiff_t>(cached_[s].size())};
      if (best < 0 || key > best_key) {
        best = static_cast<int>(s);
        best_key = key;
      }
    }
    // The last prompt token is always decoded again: its logits give the first token.
    const int reused = static_cast<int>(std::min(std::get<0>(best_key), prompt.size() - 1));
    model_.kv_seq_rm(best, reused, -1);
    cached_[static_cast<size_t>(best)].clear();
    stats_.prefix_reused += static_cast<std::uint64_t>(reused);

    seq->slot = best;
    seq->prefilled = reused;
    seq->context.assign(prompt.begin(), prompt.end());
    seq->sampler.emplace(seq->request.options.sampling);
    seq->out.emplace(model_, seq->request.options, seq->request.on_text,
                     static_cast<int>(prompt.size()));
    seq->stats.prompt_tokens = static_cast<int>(prompt.size());
    seq->t_start = Clock::now();
    if (seq->drafter) {
      seq->drafter->set_sampling(!seq->request.options.sampling.greedy());
      seq->drafter->begin(prompt);
    }
    slots_[static_cast<size_t>(best)] = std::move(seq);
  }
}

void Engine::finish(Sequence& seq, bool cancelled) {
  if (cancelled) seq.out->cancel();
  GenerationResult result = seq.out->finish();
  if (seq.drafter && !cancelled) seq.drafter->finish(seq.request.prompt, result.tokens);
  const auto now = Clock::now();
  GenerationStats& stats = seq.stats;
  stats.generated_tokens = result.stats.generated_tokens;
  stats.prefill_ms = ms_between(seq.t_start, seq.decoding ? seq.t_first : now);
  stats.decode_ms = seq.decoding ? ms_between(seq.t_first, now) : 0.0;
  result.stats = stats;

  // Cells 0..pos_max hold context tokens: keep them for a later prompt sharing the prefix.
  const int slot = seq.slot;
  const int pos_max = model_.kv_pos_max(slot);
  if (options_.reuse_prefix && pos_max >= 0)
    cached_[static_cast<size_t>(slot)].assign(
        seq.context.begin(),
        seq.context.begin() + std::min<std::ptrdiff_t>(pos_max + 1, std::ssize(seq.context)));
  else
    model_.kv_seq_rm(slot, -1, -1);
  auto on_done = std::move(seq.request.on_done);
  slots_[static_cast<size_t>(slot)].reset();  // `seq` is gone from here on
  {
    std::lock_guard lock(inbox_mutex_);
    --occupied_;
  }
  if (on_done) on_done(std::move(result));
}

// With one KV stream per sequence llama.cpp puts only consecutive sequence ids in one forward
// pass (split_equal), so running sequences with free slots between them pay a pass per run of
// neighbours: one token for each of 5 sequences took 32 ms at ids 0, 2, 3, 5, 7 against 12 ms at
// 0-4 (README, "Serving", session 32). A closed batch's tail leaves such gaps, since requests
// end at different steps. When no request waits to fill a gap, the highest running sequence
// moves to the lowest free slot between the running ones: llama.cpp copies its stream whole at
// the next decode, cells at the same indices, so its logits stay those of a solo run. Only into
// a slot that caches nothing: a finished request's cells are worth more to its next turn. Ids
// need not start at 0 (a run is any ids counting up by one), so 1, 2, 3 stay where they are.
void Engine::close_gaps() {
  if (model_.options().kv_unified) return;  // one stream: every id is in one pass already
  {
    std::lock_guard lock(inbox_mutex_);
    if (!waiting_.empty()) return;
  }
  for (;;) {
    int top = static_cast<int>(slots_.size()) - 1;
    while (top >= 0 && !slots_[static_cast<size_t>(top)]) --top;
    int hole = 0;
    while (hole < top && !slots_[static_cast<size_t>(hole)]) ++hole;  // lowest running id
    while (hole < top &&
           (slots_[static_cast<size_t>(hole)] || !cached_[static_cast<size_t>(hole)].empty()))
      ++hole;
    if (hole >= top) return;
    model_.kv_seq_cp(top, hole, -1, -1);
    model_.kv_seq_rm(top, -1, -1);
    cached_[static_cast<size_t>(top)].clear();
    slots_[static_cast<size_t>(hole)] = std::move(slots_[static_cast<size_t>(top)]);
    slots_[static_cast<size_t>(hole)]->slot = hole;
    std::lock_guard lock(inbox_mutex_);
    ++stats_.moves;
  }
}

bool Engine::step() {
  apply_cancellations();
  admit();
  close_gaps();
  std::vector<Sequence*> running;
  for (auto& s : slots_)
    if (s) running.push_back(s.get());
  if (running.empty()) {
    // Cancellations may have freed cells since the last step: /debug/engine must see it.
    std::lock_guard lock(inbox_mutex_);
    count_occupancy();
    return !waiting_.empty();
  }

  const auto t_step = Clock::now();
  double draft_ms = 0;
  // 1. Drafts for the decoding sequences. Only a unified cache lets a tree's branches share
  // the prefix's cells; with one stream per sequence drafts are chains.
  const bool trees_ok = model_.options().kv_unified;
  std::vector<Sequence*> decoding;
  for (Sequence* s : running)
    if (s->decoding) decoding.push_back(s);
  // A pass of the batch's decode, priced at the decoding sequences' mean context from the
  // measured batch table (CostModel::pass; the chain curve where none was measured).
  std::optional<PassCost> batch_cost;
  if (options_.cost && !decoding.empty()) {
    long context = 0;
    for (Sequence* s : decoding) context += s->root_pos;
    batch_cost = options_.cost->passes_at(static_cast<int>(context / std::ssize(decoding)));
  }
  const int n_decoding = static_cast<int>(decoding.size());
  // Saturated: a second token per sequence would cost half a step more or worse, so drafts
  // would need near-certain acceptance on every sequence to pay; batched AR is the best there
  // is. Counted over every stream in the decode, prompts being prefilled included: beside 15
  // decoding sequences a joining prompt makes the first pass one of 16 streams. The table
  // says it at 1.35: generation paid 1.47-1.59 for a second token per sequence at B = 8 where
  // the table priced 1.36-1.44 (session 35), and drafting there lost to batched AR on prompts
  // nothing was tuned on (docs/results/issue8/session36/saturation/).
  constexpr double kSaturatedSecondToken = 1.35;
  const int n_streams = static_cast<int>(running.size());
  const bool saturated =
      batch_cost && n_decoding > 1 &&
      (*batch_cost)(n_streams, 2) >= kSaturatedSecondToken * (*batch_cost)(n_streams, 1);
  // Otherwise, where several streams share the decode, Theorem 1 over all of it (step 2)
  // decides how much of each draft pays, and the drafters leave the cutting to it.
  const bool shared_decode = batch_cost && n_streams > 1;
  for (Sequence* s : running) {
    s->tree.reset();
    s->prefill_rows = 0;
    if (!s->decoding) continue;
    if (saturated) {  // this step is plain batched AR
      s->tree.emplace(s->context.back(), 1);
      continue;
    }
    const int free_cells = model_.n_ctx() - s->root_pos;  // positions left, the root's included
    const int cap = std::min(free_cells, s->request.options.max_tokens - s->out->size() + 1);
    // A whole tree leaves free cells between the ones it keeps, which later cells never fill
    // (so that they stay in position order: llama.cpp-kv-append.patch). Where the holes cannot
    // be closed, a tree goes whole only while the cache holds the rest of this generation after
    // them. Where they can (Model::kv_compact), it needs room for itself and one more full
    // step, and the holes are closed once a step would not fit after them; near the context's
    // end, where few steps would follow, copying every cell is not worth it.
    const int next_step = std::clamp(cap, 1, kMaxStepNodes);
    if (trees_ok && s->drafter && !s->compactable)  // plain decoding leaves no holes
      s->compactable = slots_.size() == 1 && model_.kv_compact_fits(s->slot, kMaxCompactionBytes);
    const bool can_compact = s->compactable.value_or(false);
    const bool compacting = can_compact && free_cells >= kMinCellsToCompact;
    const auto close_holes_for = [&](int nodes) {
      if (can_compact && model_.kv_holes() > 0 && model_.kv_holes() + nodes > free_cells &&
          model_.kv_compact(s->slot))
        ++s->stats.kv_compactions;
    };
    close_holes_for(next_step);
    const auto room_for = [&](int nodes) {
      return model_.kv_holes() + nodes - 1 + (compacting ? next_step : std::max(1, cap)) <=
             free_cells;
    };
    const auto a = Clock::now();
    if (s->drafter) {
      s->drafter->set_batched(shared_decode && !trees_ok);
      s->drafter->set_whole_trees(trees_ok && room_for(next_step));
    }
    DraftTree tree = s->drafter ? s->drafter->draft(s->context, std::max(1, cap))
                                : DraftTree(s->context.back(), 1);
    if ((!trees_ok || !room_for(tree.size())) && !is_chain(tree)) tree = first_child_chain(tree);
    close_holes_for(tree.size());
    s->tree.emplace(std::move(tree));
    const double ms = ms_between(a, Clock::now());
    s->stats.draft_ms += ms;
    draft_ms += ms;
  }

  // A joining sequence's next prompt chunk, within `budget` tokens of the decode: alone, a
  // prompt goes in full n_batch chunks; beside running sequences, in smaller ones so they are
  // not stalled for long. Step 2 sizes the chunks before the drafts are trimmed (no budget
  // yet), step 3 places them.
  const auto prompt_chunk = [&](const Sequence& s, int budget) {
    return std::min({static_cast<int>(s.request.prompt.size()) - s.prefilled, std::max(0, budget),
                     decoding.empty() ? model_.n_batch() : options_.prefill_chunk});
  };

  // 2. Several sequences share the decode: keep only the draft tokens the batch's cost pays for.
  int prefill_budget = model_.n_batch();
  for (Sequence* s : decoding) prefill_budget -= s->tree->size();
  if (shared_decode) {
    std::vector<std::vector<double>> alphas;
    bool all_chains = true;
    for (Sequence* s : decoding) {
      all_chains = all_chains && is_chain(*s->tree);
      std::vector<double> a;
      for (int n = s->tree->first_child(0); n > 0; n = s->tree->first_child(n))
        a.push_back(s->tree->score(n));
      alphas.push_back(std::move(a));
    }
    if (all_chains) {
      // Every id of this decode in order (llama.cpp's passes follow ids): drafts, prompt
      // chunks joining it (as step 3 below will size them), free ids between.
      std::vector<Lane> lanes;
      int n_draft = 0;
      for (Sequence* s : running) {
        for (int id = running.front()->slot + static_cast<int>(lanes.size()); id < s->slot; ++id)
          lanes.push_back({});  // a free id
        lanes.push_back(s->decoding ? Lane{n_draft++, 0}
                                    : Lane{-1, prompt_chunk(*s, std::numeric_limits<int>::max())});
      }
      const auto keep = trim_drafts(alphas, lanes, *batch_cost);
      for (size_t i = 0; i < decoding.size(); ++i) {
        DraftTree& t = *decoding[i]->tree;
        if (keep[i] + 1 >= t.size()) continue;
        std::vector<int> nodes;
        for (int n = 0; n >= 0 && static_cast<int>(nodes.size()) <= keep[i]; n = t.first_child(n))
          nodes.push_back(n);
        prefill_budget += t.size() - static_cast<int>(nodes.size());
        t = restrict_tree(t, nodes);
      }
    }
  }

  // 3. Assemble one batch in sequence-id order (llama.cpp splits a batch whose streams are
  // out of order into several passes): each sequence's draft, or its next prompt chunk.
  batch_.clear();
  int next_branch = options_.max_sequences;
  for (Sequence* s : running) {
    s->first_row = static_cast<int>(batch_.size());
    if (s->decoding) {
      s->first_branch = next_branch;
      place_tree(model_, *s->tree, s->root_pos, s->slot, s->first_branch, s->layout, batch_);
      next_branch += s->layout.branches;
      continue;
    }
    const int chunk = prompt_chunk(*s, prefill_budget);
    if (chunk <= 0) continue;
    for (int i = 0; i < chunk; ++i) {
      const int p = s->prefilled + i;
      batch_.push_back({s->request.prompt[static_cast<size_t>(p)], p,
                        std::span<const int>(&s->slot, 1), p + 1 == std::ssize(s->request.prompt)});
    }
    s->prefill_rows = chunk;
    prefill_budget -= chunk;
  }

  // 4. One forward pass for everybody.
  const auto t_decode = Clock::now();
  try {
    model_.decode(batch_);
  } catch (const ModelError&) {
    // Leave no half-committed state behind: every sequence in the batch ends here, with
    // what it has, and its cells and branch ids are freed.
    for (int id = options_.max_sequences; id < next_branch; ++id) model_.kv_seq_rm(id, -1, -1);
    for (Sequence* s : running) {
      model_.kv_seq_rm(s->slot, -1, -1);
      s->context.clear();  // nothing to cache
      finish(*s, /*cancelled=*/true);
    }
    throw;
  }
  const auto t_after = Clock::now();
  const double verify_ms = ms_between(t_decode, t_after);

  // 5. Per sequence: accept, emit, commit.
  std::uint64_t step_generated = 0, step_drafted = 0, step_accepted = 0;
  std::vector<Sequence*> done;
  for (Sequence* s : running) {
    GenerationOptions& opt = s->request.options;
    const int n_vocab = model_.n_vocab();
    if (!s->decoding) {
      s->prefilled += s->prefill_rows;
      if (s->prefilled < std::ssize(s->request.prompt) || s->prefill_rows == 0) continue;
      const float* logits = model_.logits(s->first_row + s->prefill_rows - 1);
      if (opt.on_logits) opt.on_logits(0, logits);
      const Token first = s->sampler->pick(logits, n_vocab, 0);
      s->decoding = true;
      s->t_first = Clock::now();
      s->root_pos = static_cast<int>(s->request.prompt.size());
      if (s->out->push(first)) {
        s->stats.accepted_by_source[static_cast<size_t>(DraftSource::kModel)]++;
        s->context.push_back(first);
        if (s->drafter) s->drafter->commit({&first, 1});
      }
      ++step_generated;
      if (s->out->done()) done.push_back(s);
      continue;
    }
    const DraftTree& tree = *s->tree;
    const auto row = [&](int node) { return model_.logits(s->first_row + node); };
    // Node at depth d predicts output position out.size() + d (the root is already out).
    const auto first_position = static_cast<std::uint64_t>(s->out->size());
    const Acceptance acc = accept_longest_path(tree, [&](int node) {
      const auto position = first_position + static_cast<std::uint64_t>(tree.depth(node));
      if (opt.on_logits) opt.on_logits(static_cast<int>(position), row(node));
      return s->sampler->pick(row(node), n_vocab, position);
    });
    if (s->drafter) {
      s->drafter->observe(tree, row);
      if (running.size() == 1) s->drafter->observe_step_time(tree.size(), verify_ms);
      s->drafter->feedback(tree, acc.nodes);
    }
    const int before = s->out->size();
    for (Token t : acc.emitted)
      if (!s->out->push(t)) break;
    const int committed = s->out->size() - before;  // the stream may stop mid-span
    // Keep in the KV cache only cells of tokens the output holds: a stop mid-span (EOS or a
    // stop string inside an accepted path) leaves nothing past the end.
    std::vector<int> kept = acc.nodes;
    kept.resize(static_cast<size_t>(std::clamp(committed, 1, static_cast<int>(acc.nodes.size()))));
    commit_tree(model_, tree, s->layout, kept, s->root_pos, s->slot, s->first_branch);
    s->context.insert(s->context.end(), acc.emitted.begin(), acc.emitted.begin() + committed);
    if (s->drafter)
      s->drafter->commit(TokenSpan(acc.emitted).first(static_cast<size_t>(committed)));
    s->root_pos += static_cast<int>(acc.nodes.size());

    GenerationStats& st = s->stats;
    ++st.steps;
    st.drafted_tokens += tree.size() - 1;
    for (int node = 1; node < tree.size(); ++node)
      st.drafted_by_source[static_cast<size_t>(tree.source(node))]++;
    st.verify_ms += verify_ms;
    count_in(st.accepted_histogram, committed);
    count_in(st.verified_histogram, tree.size());
    count_in(st.verify_ms_by_size, tree.size(), verify_ms);
    // Committed token k is accepted draft node k+1, or the model's own (bonus) token.
    for (int k = 0; k < committed; ++k) {
      const size_t node = static_cast<size_t>(k) + 1;
      const DraftSource src =
          node < acc.nodes.size() ? tree.source(acc.nodes[node]) : DraftSource::kModel;
      st.accepted_by_source[static_cast<size_t>(src)]++;
    }
    step_generated += static_cast<std::uint64_t>(committed);
    step_drafted += static_cast<std::uint64_t>(tree.size() - 1);
    step_accepted += static_cast<std::uint64_t>(acc.accepted_drafts());
    if (s->out->done()) done.push_back(s);
  }
  const double bookkeeping_ms = ms_between(t_after, Clock::now());
  for (Sequence* s : decoding) s->stats.bookkeeping_ms += bookkeeping_ms / std::ssize(decoding);
  for (Sequence* s : done) finish(*s, /*cancelled=*/false);

  bool had_prompt = false;
  for (Sequence* s : running) had_prompt = had_prompt || s->prefill_rows > 0;
  const double step_s = ms_between(t_step, Clock::now()) / 1000.0;
  std::lock_guard lock(inbox_mutex_);
  stats_.draft_seconds += draft_ms / 1000.0;
  stats_.decode_seconds += verify_ms / 1000.0;
  if (!had_prompt) {
    stats_.generation_seconds += step_s;
    stats_.generation_tokens += step_generated;
    if (std::ssize(running) == options_.max_sequences) {
      stats_.full_seconds += step_s;
      stats_.full_tokens += step_generated;
    }
  }
  stats_.steps++;
  stats_.generated += step_generated;
  stats_.drafted += step_drafted;
  stats_.accepted += step_accepted;
  count_occupancy();
  return true;
}

void Engine::count_occupancy() {
  stats_.running = occupied_;
  stats_.waiting = static_cast<int>(waiting_.size());
  int cells = 0, cached = 0;
  for (size_t s = 0; s < slots_.size(); ++s) {
    const int lo = model_.kv_pos_min(static_cast<int>(s));
    if (lo >= 0) cells += model_.kv_pos_max(static_cast<int>(s)) - lo + 1;
    if (!slots_[s] && !cached_[s].empty()) ++cached;
  }
  stats_.kv_cells = cells;
  stats_.cached_sequences = cached;
}

void Engine::run_until_idle() {
  while (step()) {
  }
}

EngineSnapshot Engine::snapshot() const {
  std::lock_guard lock(inbox_mutex_);
  EngineSnapshot s = stats_;
  s.waiting = static_cast<int>(waiting_.size());
  return s;
}

void Engine::drop_prefix_cache() {
  for (size_t s = 0; s < slots_.size(); ++s) {
    if (slots_[s]) continue;
    model_.kv_seq_rm(static_cast<int>(s), -1, -1);
    cached_[s].clear();
  }
}

}  // namespace reader
