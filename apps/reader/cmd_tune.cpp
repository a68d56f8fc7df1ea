// reader tune: the paper's calibration (Appendix "Choosing Tree Structure") for this model
// on this machine. It measures the verification cost c(n, L) at several context lengths,
// runs READER on calibration prompts verifying every candidate node to count how often
// each kind of node is accepted, chooses the speculator template by Theorem 1 from those
// rates, fits the refiner of READER's estimates (acceptance_refiner.h) to the candidates of
// ordinary generation with those priors and that shape, and writes it all to a profile that
// generate and bench load by default.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <thread>

#include "bench_report.h"
#include "cli_common.h"
#include "progress.h"
#include "prompt_sets.h"
#include "reader/methods.h"
#include "reader/profile.h"
#include "step_times.h"

namespace reader::cli {
namespace {

struct TuneFlags {
  ModelFlags model;
  std::string datastore = "auto";
  std::string out;  // default: models/<model>.profile.json
  std::vector<std::string> sets = {"mt_bench"};
  int prompt_offset = 40;  // calibration prompts come after the ones bench reports on
  // 40 (ids 121-160 of MT-Bench): 16 left the long-match kinds with a few dozen tries each,
  // and 40 measured +3% over 7 sets of unseen prompts (docs/calibration.md, "More calibration
  // data").
  int prompts = 40;
  int max_tokens = 96;
  int repeats = 5;
  std::vector<int> contexts = {256, 1024, 2048, 3072};
  // The refiner's prompts: chat and code, since a refiner fitted on chat alone mis-weighed
  // code's long copies (docs/results/issue8/session45); the same offset.
  std::vector<std::string> refiner_sets = {"mt_bench", "code_edit"};
  bool cost_only = false;
  bool refiner_only = false;   // keep the profile, fit its refiners again
  bool if_stale = false;       // do nothing when the profile is current for this machine
  double sampling_temp = 0.8;  // also calibrate under sampling at this temperature (0: not)
};

// A calibration prompt as the model reads it (chat template applied), tokenized once for every
// pass of the tune over the prompts.
struct CalibrationPrompt {
  std::string id;
  Tokens tokens;
};

// `items` with room in the context for `max_tokens` more (the others are left out).
std::vector<CalibrationPrompt> calibration_prompts(const Model& model,
                                                   const std::vector<PromptItem>& items,
                                                   int max_tokens) {
  std::vector<CalibrationPrompt> prompts;
  for (const PromptItem& item : items) {
    Tokens tokens = model.tokenize(model.apply_chat_template(item.user), true, true);
    if (static_cast<int>(tokens.size()) + max_tokens + 64 > model.n_ctx()) continue;
    prompts.push_back({item.id, std::move(tokens)});
  }
  return prompts;
}

// What READER's whole candidate trees had accepted, per kind of node, on `prompts`.
struct Calibration {
  AcceptanceCounts counts;
  int tokens = 0;                // generated
  std::vector<double> contexts;  // mean cached tokens of each prompt's steps
};

Calibration calibrate(Model& model, const MethodConfig& config,
                      const std::vector<CalibrationPrompt>& prompts, const GenerationOptions& opts,
                      const std::string& label) {
  Generator gen(model, config);
  Calibration c;
  ProgressBar bar(label);
  for (size_t i = 0; i < prompts.size(); ++i) {
    const GenerationResult r = gen.run(prompts[i].tokens, opts);
    c.tokens += r.stats.generated_tokens;
    c.contexts.push_back(static_cast<double>(prompts[i].tokens.size()) +
                         r.stats.generated_tokens / 2.0);
    bar.update(static_cast<double>(i + 1) / static_cast<double>(prompts.size()), prompts[i].id);
  }
  bar.finish(fmt::format("{} tokens", c.tokens));
  c.counts = gen.calibration_counts();
  return c;
}

// c(n) as generation pays it: READER's verification steps of n tokens against the
// autoregressive steps of the same prompts, the two methods alternating prompt by prompt. The
// probe times each size right after a one-token decode in a loop that does nothing else; among
// drafting, bookkeeping and steps of changing sizes, a step cost more than that (session 31, in
// this host's fast hours: 4 tokens 1.61 one-token steps where the probe said 1.16, 8 tokens
// 2.51 against 1.58; docs/tree-sizes.md, session 31). Sizes verified fewer than
// StepTimes::kEnoughSteps times are left out; where none is left, the curve is c(1) = 1 alone
// (measured, nothing to change).
CostCurve measure_steps_in_place(Model& model, const LoadedInputs& inputs, const Profile& p,
                                 const std::vector<CalibrationPrompt>& prompts,
                                 const GenerationOptions& opts) {
  MethodConfig reader_config = inputs.config(Method::kReader);
  reader_config.profile = &p;
  Generator reader(model, reader_config);
  Generator ar(model, inputs.config(Method::kAutoregressive));
  StepTimes ar_steps, reader_steps;
  ProgressBar bar("tune: steps in place");
  for (size_t i = 0; i < prompts.size(); ++i) {
    for (int k = 0; k < 2; ++k) {  // rotated, so that drift weighs on both alike
      if ((k + static_cast<int>(i)) % 2 == 0) {
        ar_steps.add(ar.run(prompts[i].tokens, opts).stats);
      } else {
        reader_steps.add(reader.run(prompts[i].tokens, opts).stats);
      }
    }
    bar.update(static_cast<double>(i + 1) / static_cast<double>(prompts.size()), prompts[i].id);
  }
  bar.finish();
  return reader_steps.curve_against(ar_steps);
}

// A speculator position's rate as it occurs: its confidence buckets, alone and seconded by
// another source, weighted by how often calibration saw each. (Sizing the template by its
// surest bucket instead gave a 6-node template that drafted more and was no faster on prompts
// bench does not report.)
double mean_speculator_rate(const AcceptanceCounts& counts, const std::vector<double>& priors,
                            int depth, int rank) {
  double weighted = 0, tried = 0;
  for (int strength = 0; strength < 4; ++strength)
    for (const bool seconded : {false, true}) {
      const int cell = AcceptanceCounts::cell(speculator_kind(depth, rank, strength, seconded));
      weighted += counts.tried(cell) * priors[static_cast<size_t>(cell)];
      tried += counts.tried(cell);
    }
  return tried > 0
             ? weighted / tried
             : priors[static_cast<size_t>(AcceptanceCounts::cell(speculator_kind(depth, rank)))];
}

// The speculator template whose expected accepted tokens per unit of cost is highest under
// the calibrated rates (Theorem 1): prune the default template's least likely nodes. Judged
// over root-to-node paths where one path is verified (single_path), over subtrees where whole
// trees are: sized by subtrees, a single-path drafter got candidates it would not verify at
// those rates, and ran slower (docs/calibration.md, session 27).
std::vector<TemplateNode> tuned_template(const std::vector<TemplateNode>& tmpl,
                                         const AcceptanceCounts& counts, const CostCurve& cost,
                                         bool single_path) {
  const std::vector<double> priors = acceptance_priors(counts);
  DraftTree tree(0, static_cast<int>(tmpl.size()) + 1);
  std::vector<double> q = {1.0};
  for (size_t i = 0; i < tmpl.size(); ++i) {
    const int parent = tmpl[i].parent < 0 ? 0 : tmpl[i].parent + 1;
    tree.add(parent, static_cast<Token>(i + 1), DraftSource::kSpeculator);
    q.push_back(
        mean_speculator_rate(counts, priors, tree.depth(static_cast<int>(i) + 1), tmpl[i].rank));
  }
  const std::vector<int> keep =
      single_path ? best_path(tree, q, cost) : best_subtree(tree, q, cost);
  std::vector<int> new_index(tmpl.size() + 1, -1);
  std::vector<TemplateNode> out;
  for (int node : keep) {
    if (node == 0) continue;
    const TemplateNode& t = tmpl[static_cast<size_t>(node - 1)];
    new_index[static_cast<size_t>(node)] = static_cast<int>(out.size());
    out.push_back({t.parent < 0 ? -1 : new_index[static_cast<size_t>(t.parent + 1)], t.rank});
  }
  return out;
}

// One markdown table of curves: a row per (label, curve), a column per point of the first.
void print_curves(const char* row, const char* column,
                  const std::vector<std::pair<int, const CostCurve*>>& curves) {
  std::printf("| %s |", row);
  const auto& first = curves.front().second->points();
  for (const auto& point : first) std::printf(" %s=%d |", column, point.first);
  std::printf("\n|---|");
  for (size_t i = 0; i < first.size(); ++i) std::printf("---|");
  std::printf("\n");
  for (const auto& [label, curve] : curves) {
    std::printf("| %d |", label);
    for (const auto& point : curve->points()) std::printf(" %.2f |", point.second);
    std::printf("\n");
  }
}

void print_cost(const CostModel& cost) {
  std::printf("\nverification cost c(n) = time(n tokens) / time(1 token):\n");
  std::vector<std::pair<int, const CostCurve*>> chains;
  for (const auto& c : cost.curves()) chains.emplace_back(c.context, &c.curve);
  print_curves("context", "n", chains);
  if (cost.batch().empty()) return;
  std::printf(
      "\nbatched, one stream per sequence: c_B(k) = time(B sequences x k tokens) / "
      "time(1 token), at %d cached tokens each:\n",
      cost.batch_context());
  std::vector<std::pair<int, const CostCurve*>> batches;
  for (const auto& b : cost.batch()) batches.emplace_back(b.sequences, &b.curve);
  print_curves("B", "k", batches);
}

// The batch table, on a second instance of the model that keeps one KV stream per sequence
// as the batched engine does (engine.h).
void measure_batch_table(const ModelFlags& flags, int repeats, CostModel& cost) {
  BatchProbe probe;
  probe.repeats = repeats;
  ModelOptions mo =
      flags.options(*std::max_element(probe.sequences.begin(), probe.sequences.end()));
  mo.kv_unified = false;
  mo.n_ctx = probe.context + probe.max_tokens + 16;
  auto streams = Model::load(mo);
  ProgressBar bar("tune: batch cost");
  measure_batch_cost(*streams, probe, cost, [&](double x) { bar.update(x); });
  bar.finish();
}

// Plots: the cost curves, and calibrated acceptance by kind.
void write_plots(const Profile& p, const std::filesystem::path& stem) {
  BarChart cost{fmt::format("Verification cost c(n, L), {} ({})", p.model, p.machine),
                "time(n) / time(1)",
                {},
                {},
                {},
                1.0};
  for (const auto& [n, c] : p.cost.curves().front().curve.points())
    cost.categories.push_back(std::to_string(n));
  for (const auto& curve : p.cost.curves()) {
    const std::string s = fmt::format("L = {}", curve.context);
    cost.series.push_back(s);
    for (const auto& [n, c] : curve.curve.points()) cost.value[s][std::to_string(n)] = c;
  }
  write_file(stem.string() + ".cost.svg", render_svg(cost));

  BarChart acc{"Calibrated acceptance q(node | parent accepted) by kind", "q", {}, {}, {}, 0};
  // Speculator: by depth (rank 0); retrieval: by match length and which sources agree.
  for (int f = 1; f <= 8; ++f) acc.categories.push_back(std::to_string(f));
  const auto put = [&](const std::vector<double>& priors, const std::string& series, NodeKind k,
                       int f) {
    if (std::find(acc.series.begin(), acc.series.end(), series) == acc.series.end())
      acc.series.push_back(series);
    acc.value[series][std::to_string(f)] = priors[static_cast<size_t>(AcceptanceCounts::cell(k))];
  };
  const std::vector<double> greedy = acceptance_priors(p.acceptance);
  for (int f = 1; f <= 8; ++f) {
    put(greedy, "speculator top-1 at depth, confidence < 0.6", speculator_kind(f, 0, 1), f);
    put(greedy, "speculator top-1 at depth, confidence >= 0.9", speculator_kind(f, 0, 3), f);
    put(greedy, "widening by match length, this text's guess",
        {DraftSource::kWidening, f, 3, Agreement::kText}, f);
    put(greedy, "widening by match length, the datastore's guess",
        {DraftSource::kWidening, f, 3, Agreement::kLongTerm}, f);
    put(greedy, "widening by match length, both sources' guess",
        {DraftSource::kWidening, f, 3, Agreement::kBoth}, f);
    put(greedy, "deepening by match length, this text's guess",
        {DraftSource::kDeepening, f, 3, Agreement::kText}, f);
    put(greedy, "copy by match length, depth 4+", {DraftSource::kCopy, f, 3, Agreement::kText}, f);
  }
  if (p.acceptance_sampled.total_tried() > 0) {
    const std::vector<double> sampled = acceptance_priors(p.acceptance_sampled);
    const std::string t = fmt::format(", T = {}", p.sampled_temperature);
    for (int f = 1; f <= 8; ++f) {
      put(sampled, "speculator top-1 at depth, confidence >= 0.9" + t, speculator_kind(f, 0, 3), f);
      put(sampled, "widening by match length, this text's guess" + t,
          {DraftSource::kWidening, f, 3, Agreement::kText}, f);
    }
  }
  write_file(stem.string() + ".acceptance.svg", render_svg(acc));
}

const char* agreement_name(Agreement a) {
  switch (a) {
    case Agreement::kText:
      return "this text's guess";
    case Agreement::kLongTerm:
      return "datastore's guess";
    case Agreement::kBoth:
      return "both guess it";
    case Agreement::kNeither:
      return "neither's own guess";
  }
  return "?";
}

void print_acceptance(const AcceptanceCounts& counts) {
  const std::vector<double> priors = acceptance_priors(counts);
  std::printf(
      "\ncalibrated acceptance q (prior used by the drafter; tried = calibration evidence):\n"
      "| kind | feature | q | tried |\n|---|---|---|---|\n");
  for (int cell = 0; cell < AcceptanceCounts::kCells; ++cell) {
    if (counts.tried(cell) < 20) continue;
    const NodeKind k = AcceptanceCounts::kind(cell);
    std::string feature =
        k.source == DraftSource::kSpeculator
            ? fmt::format("depth {} rank {} confidence {}{}", k.feature / 4 + 1, k.feature % 4,
                          k.strength, k.agreement == Agreement::kBoth ? " seconded" : "")
        : k.source == DraftSource::kCopy ? fmt::format("match {} depth {}{}", k.feature,
                                                       k.strength + 1, k.strength == 3 ? "+" : "")
                                         : fmt::format("match {} share {} {}", k.feature,
                                                       k.strength, agreement_name(k.agreement));
    std::printf("| %s | %s | %.2f | %.0f |\n", std::string(to_string(k.source)).c_str(),
                feature.c_str(), priors[static_cast<size_t>(cell)], counts.tried(cell));
  }
}

// The one reason to re-tune that needs only the refiner's passes (--refiner-only).
constexpr const char* kNoRefiner = "it has no refiner of the acceptance estimates";

// Why `old` must be tuned again, or "" when it is current for this machine, build and
// datastore (`datastore`: datastore_identity of the one calibration would use).
std::string stale_reason(const Profile& old, const Model& model, const TuneFlags& f,
                         const std::string& datastore) {
  if (!cost_is_current(old, model))
    return "its cost was measured for another machine, build, thread count or method";
  if (old.cost.batch().empty()) return "it has no batch cost table";
  if (f.cost_only) return "";
  // A profile from before the copy path (session 27) holds no counts for it.
  bool knows_copy = false;
  for (int cell = 0; cell < AcceptanceCounts::kCells; ++cell)
    knows_copy |=
        AcceptanceCounts::kind(cell).source == DraftSource::kCopy && old.acceptance.tried(cell) > 0;
  if (!knows_copy) return "it has no calibration counts for the copy path";
  if (f.sampling_temp > 0 && old.acceptance_sampled.total_tried() <= 0)
    return "it has no calibration counts under sampling";
  if (old.datastore != datastore)
    return fmt::format("calibrated with datastore '{}', now '{}'", old.datastore, datastore);
  if (old.drafter != kDrafter)
    return fmt::format("counted for drafter '{}', now '{}'", old.drafter, kDrafter);
  if (!old.cost_in_place) return "its cost was not measured in generation";
  if (old.refiner.empty()) return kNoRefiner;
  return "";
}

// The calibration prompts of `sets`: each set's `count` after its first `offset`.
std::vector<PromptItem> calibration_items(const std::vector<std::string>& sets, int offset,
                                          int count) {
  std::vector<PromptItem> items;
  for (const auto& set : sets) {
    std::vector<PromptItem> all = load_prompt_set(set, default_data_dir(), offset + count);
    if (static_cast<int>(all.size()) <= offset)
      throw UsageError(fmt::format("prompt set '{}' has only {} prompts; --prompt-offset is {}",
                                   set, all.size(), offset));
    items.insert(items.end(), all.begin() + offset, all.end());
  }
  return items;
}

// READER as `p` configures it on `prompts`, every step's candidates judged against what the
// model wrote (a collecting drafter weighs its estimates unrefined); the refiner fitted to them.
AcceptanceRefiner fit_refiner_on(Model& model, const LoadedInputs& inputs, const Profile& p,
                                 const std::vector<CalibrationPrompt>& prompts,
                                 const GenerationOptions& opts, const std::string& label) {
  RefinerCollector collector;
  MethodConfig config = inputs.config(Method::kReader);
  config.profile = &p;
  config.collect_refiner = &collector;
  Generator gen(model, config);
  ProgressBar bar(label);
  for (size_t i = 0; i < prompts.size(); ++i) {
    gen.run(prompts[i].tokens, opts);
    bar.update(static_cast<double>(i + 1) / static_cast<double>(prompts.size()), prompts[i].id);
  }
  bar.finish(fmt::format("{} candidates judged", collector.samples().size()));
  AcceptanceRefiner r = fit_refiner(collector.samples());
  std::printf(
      "%s: %lld candidates whose parent was accepted; held-out log loss %.4f as "
      "estimated, %.4f refined\n",
      label.c_str(), static_cast<long long>(r.samples), r.base_log_loss, r.refined_log_loss);
  std::fflush(stdout);
  return r;
}

// Both refiners of `p` (the sampled one where `p` was calibrated under sampling), on `items`
// (calibration_items of --refiner-prompts).
void fit_refiners(Model& model, const LoadedInputs& inputs, Profile& p, const TuneFlags& f,
                  const std::vector<PromptItem>& items) {
  GenerationOptions opts;
  opts.max_tokens = f.max_tokens;
  const std::vector<CalibrationPrompt> prompts = calibration_prompts(model, items, opts.max_tokens);
  p.refiner = fit_refiner_on(model, inputs, p, prompts, opts, "tune: refiner");
  p.refiner_sampled = {};
  if (p.sampled_temperature > 0) {
    opts.sampling.temperature = static_cast<float>(p.sampled_temperature);
    opts.sampling.seed = 1;
    p.refiner_sampled = fit_refiner_on(model, inputs, p, prompts, opts,
                                       fmt::format("tune: refiner at T={}", p.sampled_temperature));
  }
  p.refiner_calibration =
      fmt::format("{} prompts of {} after the first {}, {} tokens each", prompts.size(),
                  fmt::join(f.refiner_sets, ","), f.prompt_offset, f.max_tokens);
}

// The profile at `out`, kept in part by --cost-only and --refiner-only: one for another model
// or a corrupt one is refused rather than overwritten.
Profile load_profile_to_keep(const std::filesystem::path& out, const Model& model) {
  try {
    Profile p = load_profile(out);
    check_profile_matches(p, model, out);
    return p;
  } catch (const ProfileError& e) {
    throw UsageError(std::string(e.what()) + " (remove it or choose another --out)");
  }
}

void run_tune(const TuneFlags& f) {
  auto model = Model::load(f.model.options(64));
  const std::filesystem::path out =
      f.out.empty() ? default_profile_path(f.model.model_path) : std::filesystem::path(f.out);
  check_output_path(out, "--out", {f.model.model_path});
  // The calibration prompts, read before minutes of cost measurement that a bad set name
  // or offset would waste.
  std::vector<PromptItem> items, refiner_items;
  if (!f.cost_only) {
    items = calibration_items(f.sets, f.prompt_offset, f.prompts);
    refiner_items = calibration_items(f.refiner_sets, f.prompt_offset, f.prompts);
  }
  // The datastore the counts will be calibrated with: a profile calibrated with another one
  // weighs its nodes by the wrong evidence.
  std::optional<LoadedInputs> inputs;
  if (!f.cost_only) {
    MethodInputs in;
    in.datastore = f.datastore;
    in.profile = "none";
    inputs = load_method_inputs(in, *model, Method::kReader);
  }
  const std::string datastore = inputs ? datastore_identity(inputs->datastore.get()) : "";
  Profile p;
  std::optional<Profile> kept;  // the profile at `out` when only its refiners are fitted
  if (f.if_stale && std::filesystem::exists(out)) {
    try {
      Profile old = load_profile(out);
      check_profile_matches(old, *model, out);
      const std::string reason = stale_reason(old, *model, f, datastore);
      if (reason.empty()) {
        std::printf("profile %s is current for this machine\n", out.c_str());
        return;
      }
      std::printf("%s: %s\n", reason == kNoRefiner ? "fitting its refiner" : "re-tuning",
                  reason.c_str());
      if (reason == kNoRefiner) kept = std::move(old);
    } catch (const ProfileError& e) {
      std::printf("re-tuning: %s\n", e.what());
    }
  }
  if (f.refiner_only && !kept) {
    if (!std::filesystem::exists(out))
      throw UsageError(
          fmt::format("--refiner-only: no profile at {} (run reader tune first)", out.string()));
    kept = load_profile_to_keep(out, *model);
  }
  if (kept) {  // everything else kept as it is
    fit_refiners(*model, *inputs, *kept, f, refiner_items);
    save_profile(*kept, out);
    std::printf("wrote %s\n", out.c_str());
    return;
  }
  if (f.cost_only && std::filesystem::exists(out))  // keep its calibration, renew the cost
    p = load_profile_to_keep(out, *model);
  stamp_cost_for(p, *model);
  std::printf("tuning %s on %s, %d threads\n", p.model.c_str(), p.machine.c_str(), p.threads);

  CostProbe probe;
  probe.contexts = f.contexts;
  probe.repeats = f.repeats;
  {
    ProgressBar bar("tune: cost");
    p.cost = measure_cost_model(*model, probe, [&](double x) { bar.update(x); });
    p.cost_in_place.reset();  // the probe's alone until generation is timed below
    bar.finish();
  }
  measure_batch_table(f.model, f.repeats, p.cost);
  print_cost(p.cost);

  if (!f.cost_only) {
    MethodConfig config = inputs->config(Method::kReader);
    config.profile = &p;  // the cost just measured (calibration prunes nothing anyway)
    config.calibrate = true;
    GenerationOptions opts;
    opts.max_tokens = f.max_tokens;
    const std::vector<CalibrationPrompt> prompts =
        calibration_prompts(*model, items, opts.max_tokens);
    const Calibration greedy = calibrate(*model, config, prompts, opts, "tune: acceptance");
    p.acceptance = greedy.counts;
    p.datastore = datastore;
    p.drafter = kDrafter;
    p.calibration = fmt::format("{} prompts of {} after the first {}, {} tokens each, {} generated",
                                items.size(), fmt::join(f.sets, ","), f.prompt_offset, f.max_tokens,
                                greedy.tokens);
    print_acceptance(p.acceptance);
    std::fflush(stdout);  // before the next progress bar writes to stderr
    // The probe's curve, corrected by what generation pays, before Theorem 1 sizes anything
    // (greedy, with the counts just made).
    p.cost_in_place = measure_steps_in_place(*model, *inputs, p, prompts, opts);
    p.cost = with_steps_in_place(p.cost, *p.cost_in_place);
    std::printf("\nverification steps in place, c(n) against autoregressive steps:");
    for (const auto& [n, c] : p.cost_in_place->points()) std::printf(" %d: %.2f", n, c);
    std::printf("\n");
    print_cost(p.cost);
    std::fflush(stdout);
    p.acceptance_sampled = AcceptanceCounts{};
    p.sampled_temperature = 0;
    if (f.sampling_temp > 0) {
      // Same prompts, sampled: a drafted token is accepted as often as the model samples it.
      opts.sampling.temperature = static_cast<float>(f.sampling_temp);
      opts.sampling.seed = 1;
      const Calibration sampled = calibrate(
          *model, config, prompts, opts, fmt::format("tune: acceptance at T={}", f.sampling_temp));
      p.acceptance_sampled = sampled.counts;
      p.sampled_temperature = f.sampling_temp;
      p.calibration +=
          fmt::format("; sampled at T = {}, seed 1: {} generated", f.sampling_temp, sampled.tokens);
      std::printf("\nunder sampling (T = %g):", f.sampling_temp);
      print_acceptance(p.acceptance_sampled);
    }
    const std::vector<double>& contexts = greedy.contexts;
    // Theorem 1 on the calibrated rates at the typical calibration context.
    TreeShape shape = default_tree_shape(Method::kReader);
    // Whole trees where they verify bitwise (Model::trees_bitwise), else one path a step.
    shape.single_path = !model->trees_bitwise();
    const int typical = contexts.empty() ? 512 : static_cast<int>(median(contexts));
    shape.speculator =
        tuned_template(shape.speculator, p.acceptance, p.cost.at(typical), shape.single_path);
    p.shape = shape;
    std::printf("\ntree shape chosen (Theorem 1 at %d cached tokens): %s\n", typical,
                tree_shape_to_json(shape).c_str());
    std::fflush(stdout);
    fit_refiners(*model, *inputs, p, f, refiner_items);
  }
  save_profile(p, out);
  write_plots(p, std::filesystem::path(out).replace_extension(""));
  std::printf("wrote %s (plots: %s.{cost,acceptance}.svg)\n", out.c_str(),
              std::filesystem::path(out).replace_extension("").c_str());
}

}  // namespace

void add_tune_command(CLI::App& app) {
  auto f = std::make_shared<TuneFlags>();
  CLI::App* cmd = app.add_subcommand(
      "tune", "calibrate for this machine: verification cost, acceptance rates, tree shape");
  f->model.add_to(*cmd);
  cmd->add_option("--datastore", f->datastore,
                  "long-term datastore (auto: models/<model>.rds if built; none)")
      ->capture_default_str();
  cmd->add_option("-o,--out", f->out, "profile file (default: models/<model>.profile.json)");
  cmd->add_option("--prompts", f->sets, "calibration prompt sets (never the ones you report on)")
      ->delimiter(',')
      ->capture_default_str();
  cmd->add_option("--prompt-offset", f->prompt_offset,
                  "skip this many prompts of each set (bench reports on the first ones)")
      ->capture_default_str()
      ->check(CLI::Range(0, 100000));
  cmd->add_option("--n-prompts", f->prompts, "calibration prompts per set")
      ->capture_default_str()
      ->check(CLI::Range(1, 10000));
  cmd->add_option("-n,--max-tokens", f->max_tokens, "tokens generated per calibration prompt")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--repeats", f->repeats, "timed repetitions per cost point")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--contexts", f->contexts, "context lengths at which to measure the cost")
      ->delimiter(',')
      ->capture_default_str()
      ->check(CLI::Range(16, 1 << 20));
  cmd->add_option("--sampling-temp", f->sampling_temp,
                  "also calibrate acceptance under sampling at this temperature (0: greedy only)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 100.0));
  cmd->add_flag("--if-stale", f->if_stale,
                "only if the profile is missing, corrupt, or from another machine or build");
  CLI::Option* cost_only = cmd->add_flag("--cost-only", f->cost_only,
                                         "measure the cost curve only (no calibration prompts)");
  cmd->add_option("--refiner-prompts", f->refiner_sets,
                  "prompt sets the refiner of the acceptance estimates is fitted on")
      ->delimiter(',')
      ->capture_default_str();
  cmd->add_flag("--refiner-only", f->refiner_only,
                "keep the profile, fit its refiner of the acceptance estimates again")
      ->excludes(cost_only);
  cmd->callback([f] { run_tune(*f); });
}

}  // namespace reader::cli
