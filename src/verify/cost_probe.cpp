// Measuring c(n, L) on the model itself, and finding the cost a drafter should use.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <thread>

#include "reader/model.h"
#include "reader/profile.h"
#include "reader/sampling.h"
#include "util/median.h"
#include "verify/prefill.h"

namespace reader {
namespace {

// Timed decodes of one size, each beside the one-token decode timed just before it (its
// base): a spell of noise that slows one slows the other too, and their ratio survives it.
// The median over rounds then drops the rounds where noise hit one of the pair only. (The
// fastest time per size, used until session 10, divided by one lucky one-token decode: the
// same machine gave c(2) = 1.17 to 1.30 from run to run, against 1.26 measured in
// generation steps.)
struct PairedTimes {
  std::vector<double> ms, base;
  void add(double t, double b) {
    ms.push_back(t);
    base.push_back(b);
  }
  double median_ratio() const {
    std::vector<double> ratios(ms.size());
    for (size_t r = 0; r < ms.size(); ++r) ratios[r] = ms[r] / base[r];
    return median(std::move(ratios));
  }
};

// The machine and the attention the model runs with: flash attention, repacked weights, the
// KV-cache type, a GPU and padded decodes change what a decode of n tokens costs, so a cost
// measured with other settings is not this run's.
std::string cost_machine(const Model& model) {
  const ModelOptions& o = model.options();
  const std::string offload = model.offload_description();
  return machine_key() + (o.flash_attn ? " / flash attention" : "") +
         (o.extra_buffers ? " / repacked weights" : "") +
         (o.kv_type != "f16" ? " / KV " + o.kv_type : "") +
         (offload.empty() ? "" : " / " + offload) + (o.pad_decodes ? " / padded decodes" : "");
}

std::filesystem::path cost_cache_path(const Model& model) {
  std::filesystem::path dir;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x)
    dir = x;
  else if (const char* h = std::getenv("HOME"); h && *h)
    dir = std::filesystem::path(h) / ".cache";
  else
    dir = std::filesystem::temp_directory_path();
  const std::string key = model.description() + "|" +
                          std::to_string(model.tokenizer_fingerprint()) + "|" +
                          cost_machine(model) + "|" + std::to_string(effective_threads(model)) +
                          "|" + kCostMethod;  // entries made another way are measured again
  const auto h = std::hash<std::string>{}(key);
  char name[64];
  std::snprintf(name, sizeof name, "cost-%016zx.json", h);
  return dir / "reader" / "cost" / name;
}

// Milliseconds of one decode of `batch` with the greedy pick on every row: the policy's work
// on each row is part of every verified token's cost. The batch's cells stay.
double timed_decode(Model& model, const std::vector<BatchToken>& batch) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  model.decode(batch);
  Token sink = 0;
  for (int i = 0; i < std::ssize(batch); ++i) sink ^= argmax(model.logits(i), model.n_vocab());
  const auto t1 = Clock::now();
  if (sink == -1) std::abort();  // keeps the argmax from being optimised away
  return std::chrono::duration<double, std::milli>(t1 - t0).count();
}

// timed_decode of `n` tokens of `tokens` after the `context` cached ones on sequence 0,
// whose cells are dropped again: the next probe decode starts from the same cache.
double timed_chain(Model& model, const Tokens& tokens, int context, int n) {
  const int seq0[] = {0};
  const double t = timed_decode(model, chain_batch(tokens, context, n, seq0));
  model.kv_seq_rm(0, context, -1);
  return t;
}

// The time of a one-token decode as AR runs them, back to back: after enough untimed ones
// that the probe's last decode, of `after` tokens, has worn off. A one-token decode right
// after a long one misses the weights in the shared L3 (docs/tree-sizes.md, session 27),
// and so do several after it, the more the longer that decode took: one token read 6.4 ms
// where the probe's 64-token decode came two decodes before, against 4.8 ms in a run of them,
// and every c(n) divided by such a time read 30-40% low (session 32). Six one-token decodes
// after a 64-token one were still 20% slow; the settling grows with `after`.
double steady_one_token(Model& model, const Tokens& tokens, int context, int after) {
  const int settle = 5 + std::min(after, 64) / 4;
  for (int i = 0; i < settle; ++i) timed_chain(model, tokens, context, 1);
  return timed_chain(model, tokens, context, 1);
}

// Times every probe size at `context` cached tokens (prefilled here), one warm-up round and
// probe.repeats timed ones, appending to t[size index] (so entry r of every size is from the
// same round); `tick` after each timed decode.
//
// Each timed decode follows one-token decodes, as a verification step follows the short
// steps of generation, and is divided by the last of them (steady_one_token): its own
// baseline, taken right before it. What comes before matters twice: llama.cpp reuses the last
// decode's compute graph when the next one has as many tokens (so a one-token decode after
// another, which is all AR does, skips building one; docs/tree-sizes.md, session 19), and a
// long decode leaves the next few one-token decodes slower (session 27). The graph cache
// (ModelOptions::graph_cache) does not change this: the probe's sizes outnumber its slots and
// come round in turn, so each n >= 2 still builds its graph, where generation, which repeats
// a few sizes, mostly finds them kept (docs/tree-sizes.md, session 23).
void time_context(Model& model, const Tokens& tokens, int context, const CostProbe& probe,
                  std::vector<PairedTimes>& t, const std::function<void()>& tick) {
  model.kv_clear();
  prefill(model, TokenSpan(tokens).first(static_cast<size_t>(context)), 0);
  int last = 0;  // tokens in the last decode (the untimed round 0 settles the prefill)
  for (int r = 0; r <= probe.repeats; ++r) {
    for (size_t k = 0; k < probe.sizes.size(); ++k) {
      // Rotate the order per round so drift on a noisy machine hits every size alike.
      const size_t s = (k + static_cast<size_t>(r)) % probe.sizes.size();
      const double base = steady_one_token(model, tokens, context, last);
      const double ms = timed_chain(model, tokens, context, probe.sizes[s]);
      last = probe.sizes[s];
      if (r > 0) t[s].add(ms, base);
      tick();
    }
  }
}

}  // namespace

int effective_threads(const Model& model) {
  const int t = model.options().n_threads;
  return t > 0 ? t : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

double relative_decode_cost(Model& draft, Model& target, int rounds) {
  constexpr int kContext = 32;
  const Tokens tokens = probe_tokens(target, kContext + 1);
  for (Model* m : {&draft, &target}) {
    m->kv_clear();
    prefill(*m, TokenSpan(tokens).first(kContext), 0);
  }
  PairedTimes draft_vs_target;
  for (int r = 0; r <= rounds; ++r) {  // round 0 warms up
    const double d = timed_chain(draft, tokens, kContext, 1);
    const double t = timed_chain(target, tokens, kContext, 1);
    if (r > 0) draft_vs_target.add(d, t);
  }
  draft.kv_clear();
  target.kv_clear();
  return draft_vs_target.median_ratio();
}

CostModel measure_cost_model(Model& model, const CostProbe& probe,
                             const std::function<void(double)>& progress, CostTimings* timings) {
  const int max_n = *std::max_element(probe.sizes.begin(), probe.sizes.end());
  std::vector<int> contexts;
  for (int c : probe.contexts)
    if (c + max_n <= model.n_ctx()) contexts.push_back(c);
  if (contexts.empty())
    contexts.push_back(std::max(16, model.n_ctx() - max_n - 1));  // a tiny cache: what fits
  std::sort(contexts.begin(), contexts.end());
  const Tokens tokens = probe_tokens(model, contexts.back() + max_n);
  const int passes = std::max(1, probe.passes);
  const double total =
      static_cast<double>(static_cast<size_t>(passes) * contexts.size() *
                          static_cast<size_t>(probe.repeats + 1) * probe.sizes.size());
  double done = 0;
  // ms[context][size]: every timed decode of that size at that context, over all passes.
  std::vector<std::vector<PairedTimes>> ms(contexts.size(),
                                           std::vector<PairedTimes>(probe.sizes.size()));
  for (int pass = 0; pass < passes; ++pass) {
    for (size_t ci = 0; ci < contexts.size(); ++ci) {
      time_context(model, tokens, contexts[ci], probe, ms[ci], [&] {
        if (progress) progress(++done / total);
      });
    }
  }
  if (timings) {
    timings->contexts = contexts;
    timings->median_ms.assign(contexts.size(), {});
    for (size_t ci = 0; ci < contexts.size(); ++ci)
      for (const PairedTimes& t : ms[ci]) timings->median_ms[ci].push_back(median(t.ms));
  }
  std::vector<CostModel::Curve> curves;
  for (size_t ci = 0; ci < contexts.size(); ++ci) {
    const int context = contexts[ci];
    const std::vector<PairedTimes>& times = ms[ci];
    std::vector<std::pair<int, double>> points;
    std::vector<int> order(probe.sizes.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
    std::sort(order.begin(), order.end(), [&](int a, int b) {
      return probe.sizes[static_cast<size_t>(a)] < probe.sizes[static_cast<size_t>(b)];
    });
    // The curve at the next shorter context: attention makes a step of n tokens grow with
    // the context faster than a step of one, so c(n, L) never falls as L grows. One slow
    // one-token measurement would otherwise make a whole row look cheap.
    const CostCurve* shorter = curves.empty() ? nullptr : &curves.back().curve;
    for (int i : order) {
      const int n = probe.sizes[static_cast<size_t>(i)];
      // A step of n tokens never costs less than a step of fewer: noise must not say so.
      double c = n == 1 ? 1.0 : times[static_cast<size_t>(i)].median_ratio();
      if (!points.empty()) c = std::max(c, points.back().second);
      if (shorter) c = std::max(c, (*shorter)(n));
      points.emplace_back(n, c);
    }
    curves.push_back({context, CostCurve(std::move(points))});
  }
  model.kv_clear();
  return CostModel(std::move(curves));
}

void measure_batch_cost(Model& model, const BatchProbe& probe, CostModel& cost,
                        const std::function<void(double)>& progress) {
  if (model.options().kv_unified)
    throw std::invalid_argument("measure_batch_cost needs one KV stream per sequence");
  const int context = std::min(probe.context, model.n_ctx() - probe.max_tokens - 1);
  if (context < 1) throw std::invalid_argument("measure_batch_cost: context too small");
  std::vector<int> each = probe.each;  // a curve starts at k = 1 and rises
  std::sort(each.begin(), each.end());
  if (each.empty() || each.front() != 1)
    throw std::invalid_argument("measure_batch_cost: tokens per sequence must start at 1");
  std::vector<int> sequences = probe.sequences;
  std::sort(sequences.begin(), sequences.end());
  // (B, k), grouped by B.
  std::vector<std::pair<int, int>> sizes;
  int max_b = 1;
  for (int b : sequences) {
    if (b < 2 || b > model.n_seq_max()) continue;
    for (int k : each)
      if (b * k <= probe.max_tokens) sizes.emplace_back(b, k), max_b = std::max(max_b, b);
  }
  if (sizes.empty()) throw std::invalid_argument("measure_batch_cost: no batch size fits");
  const Tokens tokens = probe_tokens(model, context + probe.max_tokens);
  std::vector<int> ids(static_cast<size_t>(max_b));
  model.kv_clear();
  for (int s = 0; s < max_b; ++s) {
    ids[static_cast<size_t>(s)] = s;
    prefill(model, TokenSpan(tokens).first(static_cast<size_t>(context)), s);
  }
  // ms[i]: size i's time in every timed round, each beside its one-token base on sequence 0.
  std::vector<PairedTimes> ms(sizes.size());
  const double total = static_cast<double>((probe.repeats + 1) * sizes.size());
  double done = 0;
  int last = 0;  // tokens in the last decode, as in time_context
  for (int r = 0; r <= probe.repeats; ++r) {
    for (size_t j = 0; j < sizes.size(); ++j) {
      const size_t i = (j + static_cast<size_t>(r)) % sizes.size();  // rotated, as above
      const auto [b, k] = sizes[i];
      std::vector<BatchToken> batch;
      for (int s = 0; s < b; ++s) {
        const auto chain = chain_batch(tokens, context, k, {&ids[static_cast<size_t>(s)], 1});
        batch.insert(batch.end(), chain.begin(), chain.end());
      }
      const double base = steady_one_token(model, tokens, context, last);
      const double t = timed_decode(model, batch);
      last = b * k;
      for (int s = 0; s < b; ++s) model.kv_seq_rm(s, context, -1);
      if (r > 0) ms[i].add(t, base);
      if (progress) progress(++done / total);
    }
  }
  model.kv_clear();
  // Paired medians, made non-decreasing in k and in B: noise must not make more work look
  // cheaper. A smaller B was timed at every k a larger one was.
  std::vector<std::pair<int, std::vector<std::pair<int, double>>>> rows;  // (B, its (k, c))
  for (size_t i = 0; i < sizes.size(); ++i) {
    const auto [b, k] = sizes[i];
    if (rows.empty() || rows.back().first != b)
      rows.emplace_back(b, std::vector<std::pair<int, double>>{});
    std::vector<std::pair<int, double>>& points = rows.back().second;
    double c = ms[i].median_ratio();
    if (!points.empty()) c = std::max(c, points.back().second);
    if (rows.size() > 1)
      for (const auto& [k0, c0] : rows[rows.size() - 2].second)
        if (k0 == k) c = std::max(c, c0);
    points.emplace_back(k, c);
  }
  std::vector<CostModel::BatchCurve> curves;
  curves.reserve(rows.size());
  for (auto& [b, points] : rows) curves.push_back({b, CostCurve(std::move(points))});
  cost.set_batch(context, std::move(curves));
}

void stamp_cost_for(Profile& profile, const Model& model) {
  profile.model = model.description();
  profile.tokenizer = model.tokenizer_fingerprint();
  profile.machine = cost_machine(model);
  profile.threads = effective_threads(model);
  profile.cost_method = kCostMethod;
}

bool cost_is_current(const Profile& profile, const Model& model) {
  return profile.model == model.description() && profile.machine == cost_machine(model) &&
         profile.threads == effective_threads(model) && profile.cost_method == kCostMethod;
}

CostModel cost_model_for(Model& model, const Profile* profile) {
  if (profile && cost_is_current(*profile, model)) return profile->cost;
  const std::filesystem::path cache = cost_cache_path(model);
  std::error_code ec;
  if (std::filesystem::exists(cache, ec)) {
    try {
      const Profile cached = load_profile(cache);
      if (cost_is_current(cached, model)) return cached.cost;
    } catch (const ProfileError&) {
      // A corrupt cache entry is measured again below and overwritten.
    }
  }
  // Too small a cache to measure what matters: the fallback curve, not cached.
  if (model.n_ctx() < 256 + 32) return fallback_cost_model();
  if (isatty(STDERR_FILENO))  // a note for people; logs and errors stay one line
    std::fprintf(stderr,
                 "reader: measuring the verification cost of %s on this machine (once; cached in "
                 "%s)\n",
                 model.description().c_str(), cache.parent_path().c_str());
  CostProbe quick;
  quick.sizes = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 16};
  quick.repeats = 2;  // x 2 passes: one timing per point more than one pass of 3 gave
  Profile p;
  stamp_cost_for(p, model);
  p.cost = measure_cost_model(model, quick);
  p.calibration = "cost only (measured on first use)";
  std::filesystem::create_directories(cache.parent_path(), ec);
  try {
    save_profile(p, cache);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "reader: warning: cannot cache the cost curve: %s\n", e.what());
  }
  return p.cost;
}

}  // namespace reader
