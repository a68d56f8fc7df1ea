// reader bench: every method side by side on the same prompts, interleaved in one
// process (methods rotate order per prompt, so drift on a noisy machine hits all alike);
// and reader bench --cost-curve: what verifying n tokens in one decode costs here.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <stdexcept>

#include "bench_batch.h"
#include "bench_bound.h"
#include "bench_peers.h"
#include "bench_report.h"
#include "cli_common.h"
#include "json_text.h"
#include "progress.h"
#include "prompt_render.h"
#include "prompt_sets.h"
#include "reader/draft_trace.h"
#include "reader/methods.h"
#include "reader/profile.h"
#include "step_times.h"
#include "verify/prefill.h"

namespace reader::cli {
namespace {

using nlohmann::json;

struct BenchFlags {
  ModelFlags model;
  MethodInputs inputs;
  std::vector<std::string> sets = all_prompt_set_names();
  std::string prompts_file;  // the user's JSONL prompts (replace --sets unless both are given)
  int prompt_offset = 0;     // items skipped at the start of every set
  bool bound = false;        // add the copy-oracle bound (bench_bound.h)
  std::vector<std::string> methods = {"ar", "reader", "retrieval", "recycling"};
  int prompts = 20;
  int max_tokens = 128;
  float temp = 0.0f;
  uint64_t seed = 1;
  std::string out = "bench-results";
  bool cost_curve = false;
  int repeats = 5;
  PeerBenchFlags peers;    // --peers, --peers-sweep (bench_peers.h)
  std::vector<int> batch;  // --batch: batch sizes for the batched-throughput bench
  bool predict = false;    // add READER with each item's source text as predicted output
  bool trace = false;      // write the drafters' choices to <out>/drafts.jsonl (draft_trace.h)
};

// How far batched rows drift from one-token decodes of the same tokens: the logits of a
// 32-token chain, and of the same chain interleaved with a sibling branch (a tree), against
// 32 one-token decodes. 0 means this build's kernels agree bitwise (lossless by design).
json kernel_agreement(Model& model, const Tokens& prompt, int prefix) {
  const int n = 32;
  const int nv = model.n_vocab();
  const int seq0[] = {0}, seq1[] = {1}, seq2[] = {2};
  std::vector<std::vector<float>> ar;
  for (int i = 0; i < n; ++i) {
    model.decode(chain_batch(prompt, prefix + i, 1, seq0));
    ar.emplace_back(model.logits(0), model.logits(0) + nv);
  }
  model.kv_seq_rm(0, prefix, -1);
  auto max_diff = [&](int row, int i) {
    float d = 0;
    const float* got = model.logits(row);
    const std::vector<float>& want = ar[static_cast<size_t>(i)];
    for (int k = 0; k < nv; ++k) d = std::max(d, std::fabs(got[k] - want[static_cast<size_t>(k)]));
    return d;
  };
  model.decode(chain_batch(prompt, prefix, n, seq0));
  float chain = 0;
  for (int i = 0; i < n; ++i) chain = std::max(chain, max_diff(i, i));
  model.kv_seq_rm(0, prefix, -1);
  // Tree: branch 1 is the chain, branch 2 a different token at every depth, interleaved.
  model.kv_seq_cp(0, 1, 0, prefix);
  model.kv_seq_cp(0, 2, 0, prefix);
  std::vector<BatchToken> batch;
  for (int i = 0; i < n / 2; ++i) {
    batch.push_back({prompt[static_cast<size_t>(prefix + i)], prefix + i, seq1, true});
    batch.push_back({prompt[static_cast<size_t>(prefix + i)] + 1, prefix + i, seq2, true});
  }
  model.decode(batch);
  float tree = 0;
  for (int i = 0; i < n / 2; ++i) tree = std::max(tree, max_diff(2 * i, i));
  model.kv_seq_rm(1, 0, -1);
  model.kv_seq_rm(2, 0, -1);
  std::printf(
      "kernel agreement with one-token decodes: chain of %d max |dlogit| %g, "
      "2-branch tree max |dlogit| %g\n",
      n, chain, tree);
  return {{"chain_max_abs_diff", chain}, {"tree_max_abs_diff", tree}};
}

// c(n) on top of a 512-token cached prefix, all logits on: the probe `reader tune` uses
// (rounds of every size, paired median ratios), at one context and sizes up to 64.
void run_cost_curve(const BenchFlags& f) {
  if (f.model.ctx < 1024)
    throw UsageError("--cost-curve needs --ctx of at least 1024 (512 cached + 64 new tokens)");
  auto model = Model::load(f.model.options(3));
  const int prefix = 512;
  CostProbe probe;
  probe.contexts = {prefix};
  probe.sizes = {1, 2, 4, 8, 16, 32, 64};
  probe.repeats = f.repeats;
  probe.passes = 1;
  CostTimings timings;
  const CostCurve curve = measure_cost_model(*model, probe, {}, &timings).at(prefix);
  json rows = json::array();
  std::printf("| n tokens | median ms | c(n) |\n|---|---|---|\n");
  for (size_t i = 0; i < probe.sizes.size(); ++i) {
    const int n = probe.sizes[i];
    const double ms = timings.median_ms.front()[i];
    std::printf("| %d | %.2f | %.2f |\n", n, ms, curve(n));
    rows.push_back({{"n", n}, {"median_ms", ms}, {"ratio", curve(n)}});
  }
  // Kernel agreement decodes on top of the probe's kind of prefix, cached again.
  const Tokens prompt = probe_tokens(*model, prefix + 64);
  prefill(*model, TokenSpan(prompt).first(prefix), 0);
  const json agreement = kernel_agreement(*model, prompt, prefix);
  std::filesystem::create_directories(f.out);
  write_file(std::filesystem::path(f.out) / "cost_curve.json",
             json{{"model", model->description()},
                  {"prefix", prefix},
                  {"flash_attn", model->options().flash_attn},
                  {"kv_type", f.model.kv_type},
                  {"rows", rows},
                  {"kernel_agreement", agreement}}
                 .dump(2));  // numbers and names only
  BarChart chart{"Verification cost: decode of n tokens / decode of 1 token",
                 "time ratio",
                 {},
                 {"cost"},
                 {},
                 1.0};
  for (const auto& r : rows) {
    chart.categories.push_back(std::to_string(r["n"].get<int>()));
    chart.value["cost"][chart.categories.back()] = r["ratio"].get<double>();
  }
  write_file(std::filesystem::path(f.out) / "cost_curve.svg", render_svg(chart));
}

// Combinations that would be silently ignored or double-counted: refused before any work.
void check_bench_flags(const BenchFlags& f) {
  check_output_path(f.out, "--out", {}, /*directory=*/true);
  const auto no_repeats = [](const std::vector<std::string>& v, const char* flag) {
    for (size_t i = 0; i < v.size(); ++i)
      if (std::find(v.begin() + static_cast<std::ptrdiff_t>(i) + 1, v.end(), v[i]) != v.end())
        throw UsageError(std::string(flag) + " names '" + v[i] + "' twice");
  };
  no_repeats(f.sets, "--sets");
  no_repeats(f.methods, "--methods");
  const char* batch_excludes = f.peers.enabled()         ? "--peers"
                               : f.bound                 ? "--bound"
                               : f.predict               ? "--predict"
                               : !f.prompts_file.empty() ? "--prompts-file"
                                                         : nullptr;
  if (f.trace && (f.cost_curve || !f.batch.empty()))
    throw UsageError(std::string("--trace records the methods' runs one prompt at a time: drop ") +
                     (f.cost_curve ? "--cost-curve" : "--batch"));
  if (!f.batch.empty() && batch_excludes)
    throw UsageError(std::string("--batch runs the built-in sets without peers, bound or "
                                 "prediction: drop ") +
                     batch_excludes);
  if (f.cost_curve && !f.batch.empty())
    throw UsageError("--cost-curve measures one sequence: drop --batch");
}

// This run's verification steps against its autoregressive ones, into bench.md and bench.json,
// so that a run says what it paid (why: step_times.h). `methods`: our methods, AR first.
void add_step_costs(const std::vector<std::string>& methods,
                    const std::map<std::string, StepTimes>& times, std::string& md, json& out) {
  const auto ar = times.find(methods.front());
  const double base = ar == times.end() ? 0 : ar->second.mean_ms(1);
  if (base <= 0) return;
  out["ar_ms_per_step"] = base;
  std::string lines;
  for (size_t m = 1; m < methods.size(); ++m) {
    const auto it = times.find(methods[m]);
    if (it == times.end()) continue;
    json rows = json::array();
    std::string line;
    for (const auto& [n, c] : it->second.relative_to(base, StepTimes::kEnoughSteps)) {
      const int steps = it->second.steps(n);
      rows.push_back({{"tokens", n}, {"cost", c}, {"steps", steps}});
      line += fmt::format("{}{}: {:.2f} ({})", line.empty() ? "" : ", ", n, c, steps);
    }
    out[methods[m]] = rows;
    if (!line.empty()) lines += fmt::format("- {}: {}\n", methods[m], line);
  }
  if (!lines.empty())
    md += fmt::format(
        "\nVerification steps in this run against an autoregressive step ({:.2f} ms), as tokens "
        "verified: cost (steps), for sizes seen {} times or more:\n{}",
        base, StepTimes::kEnoughSteps, lines);
}

void run_bench(const BenchFlags& f) {
  check_bench_flags(f);
  if (f.cost_curve) return run_cost_curve(f);
  if (!f.batch.empty()) {
    BatchBenchParams p;
    p.sizes = f.batch;
    for (int b : p.sizes)
      if (b < 1 || b > 256) throw UsageError("--batch sizes must be in 1..256");
    p.methods = {"ar"};
    for (const auto& m : f.methods)
      if (m != "ar") p.methods.push_back(m);
    for (const auto& s : f.sets)
      p.sets.emplace_back(s, load_prompt_set(s, default_data_dir(), f.prompts, f.prompt_offset));
    p.max_tokens = f.max_tokens;
    p.sampling = {f.temp, 0, 1.0f, f.seed};
    p.repeats = f.repeats;
    p.out = f.out;
    return run_batch_bench(p, f.model, f.inputs);
  }
  std::vector<Method> methods;
  for (const auto& name : f.methods) methods.push_back(parse_method(name));
  // AR always runs, first in the table: speedups and identity checks are relative to it.
  methods.erase(std::remove(methods.begin(), methods.end(), Method::kAutoregressive),
                methods.end());
  methods.insert(methods.begin(), Method::kAutoregressive);
  // Prompts first, so that a bad set or file fails before the model loads.
  size_t total = 0, done = 0;
  std::vector<std::pair<std::string, std::vector<PromptItem>>> sets;
  for (const auto& s : f.sets)
    sets.emplace_back(
        s, load_prompt_set(s, default_data_dir(), f.prompts,
                           f.prompt_offset + (f.peers.sweep ? f.peers.calibration_offset : 0)));
  if (!f.prompts_file.empty())
    for (auto& s : load_prompts_file(f.prompts_file, f.prompts, f.prompt_offset))
      sets.push_back(std::move(s));
  for (const auto& s : sets) total += s.second.size();
  if (f.peers.sweep) methods.resize(1);  // a sweep compares peers with AR only
  std::unique_ptr<PeerBench> peers;
  if (f.peers.enabled()) peers = std::make_unique<PeerBench>(f.peers, f.model);
  std::vector<std::string> names;  // the rows of each prompt: methods, then peers
  names.reserve(methods.size() + 1 + (peers ? peers->size() : 0));
  for (Method m : methods) names.emplace_back(to_string(m));
  if (f.predict) names.emplace_back("reader+prediction");
  for (size_t i = 0; peers && i < peers->size(); ++i) names.push_back(peers->name(i));
  auto model = Model::load(f.model.options(64));
  const LoadedInputs inputs = load_method_inputs(f.inputs, *model, Method::kReader);
  std::vector<std::unique_ptr<Generator>> gens;
  gens.reserve(methods.size());
  for (Method m : methods) gens.push_back(std::make_unique<Generator>(*model, inputs.config(m)));
  // Predicted outputs: READER given each item's source text (code_edit: the function to
  // edit) as OpenAI's "prediction", as `reader serve` does.
  const size_t predicted = gens.size();
  if (f.predict)
    gens.push_back(std::make_unique<Generator>(*model, inputs.config(Method::kReader)));

  // Every drafter's steps, for scripts/replay_drafts.py; AR has none.
  std::ofstream trace_file;
  std::optional<DraftTrace> trace;
  const std::filesystem::path trace_path = std::filesystem::path(f.out) / "drafts.jsonl";
  if (f.trace) {
    std::filesystem::create_directories(f.out);
    trace_file.open(trace_path);
    if (!trace_file) throw UsageError("cannot write " + trace_path.string());
    trace.emplace(trace_file);
    for (auto& g : gens) g->set_trace(&*trace);
  }

  GenerationOptions opts;
  opts.max_tokens = f.max_tokens;
  opts.sampling = {f.temp, 0, 1.0f, f.seed};
  json runs = json::array();
  std::optional<BoundTable> bound;
  if (f.bound) {  // under the cost the drafters use: this machine's, at each context length
    auto cost = std::make_shared<CostModel>(
        cost_model_for(*model, inputs.profile ? &*inputs.profile : nullptr));
    bound.emplace([cost](int context) { return cost->at(context); }, inputs.datastore.get());
  }
  // Every prompt is rendered (multi-turn ones generate their earlier answers) and checked
  // before any runs: one the context cannot hold stops the bench at once, not after the runs
  // before it (whose results would be lost).
  struct RenderedPrompt {
    std::string text;  // with the chat template (peers take text)
    Tokens tokens;     // its tokens (our methods)
  };
  std::vector<std::vector<RenderedPrompt>> rendered;  // [set][item]
  for (const auto& [set, items] : sets) {
    rendered.emplace_back();
    for (const auto& item : items) {
      std::string text = render_chat_prompt(*model, item, f.max_tokens);
      Tokens tokens = model->tokenize(text, true, true);
      try {
        check_prompt(*model, tokens);
      } catch (const ModelError& e) {
        throw ModelError(fmt::format("{} prompt '{}': {}", set, item.id, e.what()));
      }
      rendered.back().push_back({std::move(text), std::move(tokens)});
    }
  }
  {  // warm-up: first decodes of each batch shape are slower
    const Tokens p = model->tokenize(model->apply_chat_template("Hello"), true, true);
    GenerationOptions w = opts;
    w.max_tokens = 16;
    for (size_t g = 0; g < gens.size(); ++g) {
      if (trace && g > 0) trace->run("warm-up", "", names[g]);
      gens[g]->run(p, w);
    }
  }
  std::map<std::string, StepTimes> step_times;  // by method: its verification steps' times
  // By set: AR's steps and those of our other methods, pooled (the bound's prices).
  std::map<std::string, std::pair<StepTimes, StepTimes>> set_steps;
  ProgressBar bar("bench");
  for (size_t si = 0; si < sets.size(); ++si) {
    const auto& [set, items] = sets[si];
    for (size_t p = 0; p < items.size(); ++p) {
      const std::string& prompt_text = rendered[si][p].text;
      const Tokens& prompt = rendered[si][p].tokens;
      std::string reference;
      std::vector<json> rows(names.size());
      for (size_t k = 0; k < names.size(); ++k) {
        const size_t g = (k + p) % names.size();  // rotate the order per prompt
        if (g >= gens.size()) {
          rows[g] = peers->run(g - gens.size(), prompt_text, f.max_tokens);
          continue;
        }
        if (g == predicted)
          gens[g]->set_prediction(model->tokenize(items[p].context, false, false));
        if (trace && g > 0) trace->run(set, items[p].id, names[g]);
        const GenerationResult r = gens[g]->run(prompt, opts);
        step_times[names[g]].add(r.stats);
        (g == 0 ? set_steps[set].first : set_steps[set].second).add(r.stats);
        rows[g] = generation_to_json(r);
        rows[g]["text"] = r.text;
        if (g == 0 && bound) rows[g].update(bound->add(set, prompt, r.tokens));
      }
      reference = rows[0]["text"];
      for (size_t g = 0; g < names.size(); ++g) {
        rows[g]["set"] = set;
        rows[g]["id"] = items[p].id;
        rows[g]["method"] = names[g];
        rows[g]["identical_to_ar"] =
            g < gens.size() ? rows[g]["text"] == reference
                            : peer_text_matches(rows[g]["text"].get<std::string>(), reference);
        runs.push_back(rows[g]);
      }
      bar.update(static_cast<double>(++done) / static_cast<double>(total), set + " " + items[p].id);
    }
  }
  bar.finish();
  if (trace) {
    trace_file.close();
    if (!trace_file) throw std::runtime_error("writing " + trace_path.string() + " failed");
  }

  // Summary: per set and method, median tokens/s, speedup = ratio of medians over AR. The
  // total-time speedup (all tokens over all decode time, against AR's) weighs each prompt by
  // its length: ten prompts of 7 to 128 tokens make the median a matter of which one is 5th.
  json summary = json::array();
  BarChart chart{fmt::format("Speedup over autoregressive ({}, {} tokens, temp {})",
                             model->description(), f.max_tokens, f.temp),
                 "speedup (ratio of median tokens/s)",
                 {},
                 {},
                 {},
                 1.0};
  std::string md =
      peers
          ? "| set | method | tokens/s (median) | speedup | speedup over llama:ar | mean accepted "
            "| identical to AR | speedup (total time) |\n|---|---|---|---|---|---|---|---|\n"
          : "| set | method | tokens/s (median) | speedup | mean accepted | identical to AR "
            "| speedup (total time) |\n|---|---|---|---|---|---|---|\n";
  for (const auto& [set, items] : sets) {
    chart.categories.push_back(set);
    double ar_tps = 0, ar_total_tps = 0;
    const double llama_ar_tps = peers ? median_tokens_per_s(runs, set, "llama:ar") : 0;
    for (const std::string& m : names) {
      std::vector<double> tps, acc;
      int identical = 0, n = 0;
      double tokens = 0, decode_ms = 0;
      for (const auto& r : runs)
        if (r["set"] == set && r["method"] == m && r.value("ok", true)) {
          tps.push_back(r["tokens_per_s"]);
          tokens += r.value("generated_tokens", 0.0);
          decode_ms += r.value("decode_ms", 0.0);
          acc.push_back(r["mean_accepted"]);
          identical += r["identical_to_ar"].get<bool>();
          ++n;
        }
      const double med = median(tps);
      const double total_tps = decode_ms > 0 ? tokens / decode_ms : 0;
      if (m == names[0]) {
        ar_tps = med;
        ar_total_tps = total_tps;
      }
      const double speedup = ar_tps > 0 ? med / ar_tps : 0;
      const double total_speedup = ar_total_tps > 0 ? total_tps / ar_total_tps : 0;
      double mean_acc = 0;
      for (double a : acc) mean_acc += a / static_cast<double>(acc.size());
      summary.push_back({{"set", set},
                         {"method", m},
                         {"median_tokens_per_s", med},
                         {"speedup", speedup},
                         {"speedup_total_time", total_speedup},
                         {"mean_accepted", mean_acc},
                         {"identical", identical},
                         {"prompts", n}});
      const std::string vs_llama =
          peers ? fmt::format(" {:.2f}x |", llama_ar_tps > 0 ? med / llama_ar_tps : 0) : "";
      if (peers) summary.back()["speedup_vs_llama_ar"] = llama_ar_tps > 0 ? med / llama_ar_tps : 0;
      md += fmt::format("| {} | {} | {:.1f} | {:.2f}x |{} {:.2f} | {}/{} | {:.2f}x |\n", set, m,
                        med, speedup, vs_llama, mean_acc, identical, n, total_speedup);
      if (m != names[0]) {
        if (std::find(chart.series.begin(), chart.series.end(), m) == chart.series.end())
          chart.series.push_back(m);
        chart.value[m][set] = speedup;
      }
    }
  }
  if (bound) {
    std::map<std::string, CostCurve> steps_paid;
    for (const auto& [set, steps] : set_steps)
      steps_paid.emplace(set, steps.second.curve_against(steps.first));
    md += bound->annotate(summary, steps_paid);
  }
  json step_costs = json::object();
  add_step_costs({names.begin(), names.begin() + static_cast<std::ptrdiff_t>(gens.size())},
                 step_times, md, step_costs);
  std::filesystem::create_directories(f.out);
  const json config = {{"model", model->description()},
                       {"model_path", f.model.model_path},
                       {"offload", model->offload_description()},
                       {"pad_decodes", model->options().pad_decodes},
                       {"prompts_per_set", f.prompts},
                       {"prompt_offset", f.prompt_offset},
                       {"max_tokens", f.max_tokens},
                       {"temp", f.temp},
                       {"seed", f.seed},
                       {"datastore", inputs.datastore ? inputs.datastore->path().string() : ""},
                       {"peers", peers ? peers->describe() : json()}};
  write_file(std::filesystem::path(f.out) / "bench.json", dump_json(json{{"config", config},
                                                                         {"summary", summary},
                                                                         {"step_costs", step_costs},
                                                                         {"runs", runs}},
                                                                    1));
  write_file(std::filesystem::path(f.out) / "bench.md", md);
  write_file(std::filesystem::path(f.out) / "speedup.svg", render_svg(chart));
  std::printf("%s\nwrote %s/{bench.json, bench.md, speedup.svg}\n", md.c_str(), f.out.c_str());
  if (f.peers.sweep) write_sweep_best(summary, f.out);
}

}  // namespace

void add_bench_command(CLI::App& app) {
  auto f = std::make_shared<BenchFlags>();
  CLI::App* cmd = app.add_subcommand(
      "bench", "compare decoding methods side by side on the shared prompt sets");
  f->model.add_to(*cmd);
  f->inputs.add_to(*cmd);
  cmd->add_option("--sets", f->sets,
                  "prompt sets: rag humaneval gsm8k mt_bench code_edit multi_turn summarization")
      ->delimiter(',')
      ->capture_default_str();
  cmd->add_option("--methods", f->methods, "methods to compare (ar is always included)")
      ->delimiter(',')
      ->capture_default_str();
  cmd->add_option("--prompts-file", f->prompts_file,
                  "JSONL prompts, one {\"prompt\": ...} or {\"messages\": [...]} per line, "
                  "optional \"set\" and \"id\" (replaces --sets unless it is given too)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--prompt-offset", f->prompt_offset,
                  "skip the first K prompts of every set (disjoint calibration / report slices)")
      ->check(CLI::Range(0, 1000000));
  cmd->add_flag("--bound", f->bound,
                "add the copy-oracle bound of each set (from the AR outputs) and each "
                "method's share of it, priced on the profile's cost curve and on the steps "
                "this run paid");
  cmd->add_option("--prompts", f->prompts, "prompts per set")
      ->capture_default_str()
      ->check(CLI::Range(1, 10000));
  cmd->add_option("-n,--max-tokens", f->max_tokens, "tokens per prompt")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--temp", f->temp, "temperature (0: greedy)")->check(CLI::Range(0.0f, 100.0f));
  cmd->add_option("--seed", f->seed, "sampling seed");
  cmd->add_option("-o,--out", f->out, "output directory")->capture_default_str();
  cmd->add_option("--batch", f->batch,
                  "batched throughput at these batch sizes (e.g. 1,4,8,16,32); --repeats rounds")
      ->delimiter(',');
  cmd->add_flag("--predict", f->predict,
                "also run reader with each item's source text (code_edit: the function) as "
                "the predicted output");
  cmd->add_flag("--trace", f->trace,
                "also write every drafter's candidates and choices, step by step, to "
                "OUT/drafts.jsonl (replay other policies with scripts/replay_drafts.py)");
  cmd->add_flag("--cost-curve", f->cost_curve, "measure decode cost of n = 1..64 tokens instead");
  cmd->add_option("--repeats", f->repeats, "timed rounds of every size for --cost-curve")
      ->check(CLI::Range(1, 1000));
  f->peers.add_to(*cmd);
  cmd->callback([f, cmd] {
    if (!f->prompts_file.empty() && cmd->count("--sets") == 0) f->sets.clear();
    run_bench(*f);
  });
}

}  // namespace reader::cli
