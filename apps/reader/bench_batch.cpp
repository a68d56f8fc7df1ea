#include "bench_batch.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "bench_report.h"
#include "progress.h"
#include "prompt_render.h"
#include "reader/drafter.h"
#include "reader/engine.h"

namespace reader::cli {
namespace {

using json = nlohmann::json;

struct BatchRun {
  double tokens_per_second = 0;    // generated tokens over wall time
  int generated = 0;               // tokens
  std::vector<std::string> texts;  // per request
  double accepted_per_step = 0;
  double generation_tps = 0;  // tokens/s of the steps without prompt tokens
  double full_tps = 0;        // tokens/s of the steps with all B sequences decoding
  double draft_share = 0;     // drafting time over wall time
};

BatchRun run_once(Model& model, const MethodConfig& base, Method method,
                  const std::vector<Tokens>& prompts, const GenerationOptions& opts, int size,
                  const CostModel& cost) {
  SharedDraftState shared;  // fresh per run: earlier runs' outputs must not leak in
  MethodConfig config = base;
  config.method = method;
  config.shared = &shared;
  config.cost = &cost;
  EngineOptions eo;
  eo.max_sequences = size;
  eo.max_waiting = static_cast<int>(prompts.size());
  eo.reuse_prefix = false;
  eo.cost = &cost;
  Engine engine(model, eo);
  BatchRun run;
  run.texts.resize(prompts.size());
  const auto t0 = std::chrono::steady_clock::now();
  for (size_t i = 0; i < prompts.size(); ++i) {
    Request r;
    r.prompt = prompts[i];
    r.options = opts;
    r.owned_drafter = make_drafter(model, config);
    r.on_done = [&run, i](GenerationResult g) {
      run.generated += static_cast<int>(g.tokens.size());
      run.texts[i] = std::move(g.text);
    };
    engine.submit(std::move(r));
  }
  engine.run_until_idle();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  run.tokens_per_second = run.generated / s;
  const EngineSnapshot snap = engine.snapshot();
  run.accepted_per_step = snap.steps ? static_cast<double>(snap.accepted) / snap.steps : 0;
  run.generation_tps =
      snap.generation_seconds > 0 ? snap.generation_tokens / snap.generation_seconds : 0;
  run.full_tps = snap.full_seconds > 0 ? snap.full_tokens / snap.full_seconds : 0;
  run.draft_share = snap.draft_seconds / s;
  return run;
}

}  // namespace

void run_batch_bench(const BatchBenchParams& p, const ModelFlags& model_flags,
                     const MethodInputs& method_inputs) {
  const int max_b = *std::max_element(p.sizes.begin(), p.sizes.end());
  ModelOptions mo = model_flags.options(max_b);
  mo.kv_unified = false;  // one stream per sequence: outputs exactly as alone
  auto model = Model::load(mo);
  const LoadedInputs inputs = load_method_inputs(method_inputs, *model, Method::kReader);
  const MethodConfig base = inputs.config(Method::kReader);
  const CostModel cost = cost_model_for(*model, base.profile);

  // The prompt mix: items of every set in turn.
  std::vector<Tokens> pool;
  for (size_t k = 0; pool.size() < 2 * static_cast<size_t>(max_b); ++k) {
    bool any = false;
    for (const auto& [name, items] : p.sets) {
      if (k >= items.size()) continue;
      any = true;
      pool.push_back(
          model->tokenize(render_chat_prompt(*model, items[k], p.max_tokens), true, true));
    }
    if (!any) break;
  }
  if (pool.empty()) throw UsageError("--batch needs prompts");
  GenerationOptions opts;
  opts.max_tokens = p.max_tokens;
  opts.sampling = p.sampling;

  std::vector<Method> methods;
  for (const auto& m : p.methods) methods.push_back(parse_method(m));
  std::map<int, std::map<std::string, std::vector<double>>> tps;  // [B][method] per repeat
  std::map<int, std::map<std::string, double>> acc_per_step;
  std::map<int, std::map<std::string, std::vector<double>>> gen_tps, full_tps, draft_share;
  std::map<int, std::map<std::string, int>> identical, total;
  ProgressBar bar("bench --batch");
  const size_t jobs = p.sizes.size() * static_cast<size_t>(p.repeats) * methods.size();
  size_t done = 0;
  for (int rep = 0; rep < p.repeats; ++rep) {
    for (int b : p.sizes) {
      std::vector<Tokens> prompts;
      prompts.reserve(2 * static_cast<size_t>(b));
      for (int i = 0; i < 2 * b; ++i) prompts.push_back(pool[static_cast<size_t>(i) % pool.size()]);
      std::vector<std::string> reference;
      std::vector<BatchRun> runs(methods.size());
      for (size_t k = 0; k < methods.size(); ++k) {
        const size_t m = (k + static_cast<size_t>(rep)) % methods.size();  // rotate the order
        runs[m] = run_once(*model, base, methods[m], prompts, opts, b, cost);
        bar.update(static_cast<double>(++done) / static_cast<double>(jobs),
                   fmt::format("B={} {}", b, to_string(methods[m])));
      }
      for (size_t m = 0; m < methods.size(); ++m) {
        const std::string name(to_string(methods[m]));
        tps[b][name].push_back(runs[m].tokens_per_second);
        acc_per_step[b][name] = runs[m].accepted_per_step;
        gen_tps[b][name].push_back(runs[m].generation_tps);
        full_tps[b][name].push_back(runs[m].full_tps);
        draft_share[b][name].push_back(runs[m].draft_share);
        for (size_t i = 0; i < prompts.size(); ++i) {
          identical[b][name] += runs[m].texts[i] == runs[0].texts[i];
          total[b][name]++;
        }
      }
    }
  }
  bar.finish();

  // Wall: everything, prompts included. Gen: steps without prompt tokens (decode only).
  // Full: steps with all B slots decoding, a loaded server's steady state; a closed batch
  // also has a tail where its last, slowest sequences decode alone.
  std::string md = "| B | " + p.methods[0] + " tok/s wall / gen / full |";
  for (size_t m = 1; m < methods.size(); ++m)
    md += fmt::format(
        " {0} tok/s wall / gen / full | {0} speedup wall / gen / full |"
        " rounds' wall ratios |"
        " drafting share | identical |",
        p.methods[m]);
  md += "\n|---|---|";
  for (size_t m = 1; m < methods.size(); ++m) md += "---|---|---|---|---|";
  md += "\n";
  BarChart chart{"Batched throughput (" + model->description() + ")",
                 "generated tokens/s",
                 {},
                 p.methods,
                 {},
                 0};
  json rows = json::array();
  for (int b : p.sizes) {
    const double base_tps = median(tps[b][p.methods[0]]);
    const double base_gen = median(gen_tps[b][p.methods[0]]);
    const double base_full = median(full_tps[b][p.methods[0]]);
    md += fmt::format("| {} | {:.1f} / {:.1f} / {:.1f} |", b, base_tps, base_gen, base_full);
    chart.categories.push_back("B=" + std::to_string(b));
    for (size_t m = 0; m < methods.size(); ++m) {
      const std::string& name = p.methods[m];
      const double med = median(tps[b][name]);
      chart.value[name][chart.categories.back()] = med;
      const double gen = median(gen_tps[b][name]);
      const double full = median(full_tps[b][name]);
      // Each round runs every method back to back, so a round's own ratio cancels the slow
      // drifts of a shared machine; their spread shows how far one run can be trusted.
      std::vector<double> round_ratios;
      for (size_t r = 0; r < tps[b][name].size(); ++r)
        if (tps[b][p.methods[0]][r] > 0)
          round_ratios.push_back(tps[b][name][r] / tps[b][p.methods[0]][r]);
      std::sort(round_ratios.begin(), round_ratios.end());
      if (m > 0)
        md += fmt::format(
            " {:.1f} / {:.1f} / {:.1f} | {:.2f}x / {:.2f}x / {:.2f}x | {:.2f}-{:.2f}x | {:.0f}% | "
            "{}/{} |",
            med, gen, full, base_tps > 0 ? med / base_tps : 0.0,
            base_gen > 0 ? gen / base_gen : 0.0, base_full > 0 ? full / base_full : 0.0,
            round_ratios.empty() ? 0.0 : round_ratios.front(),
            round_ratios.empty() ? 0.0 : round_ratios.back(), 100 * median(draft_share[b][name]),
            identical[b][name], total[b][name]);
      rows.push_back({{"batch", b},
                      {"method", name},
                      {"tokens_per_second", tps[b][name]},
                      {"median", med},
                      {"round_speedups", round_ratios},
                      {"generation_tokens_per_second", gen_tps[b][name]},
                      {"full_batch_tokens_per_second", full_tps[b][name]},
                      {"draft_share", draft_share[b][name]},
                      {"accepted_per_step", acc_per_step[b][name]},
                      {"identical_to_ar", identical[b][name]},
                      {"requests", total[b][name]}});
    }
    md += "\n";
  }
  std::filesystem::create_directories(p.out);
  write_file(std::filesystem::path(p.out) / "batch.json", json{{"model", model->description()},
                                                               {"max_tokens", p.max_tokens},
                                                               {"repeats", p.repeats},
                                                               {"rows", rows}}
                                                              .dump(1));
  write_file(std::filesystem::path(p.out) / "batch.md", md);
  write_file(std::filesystem::path(p.out) / "batch.svg", render_svg(chart));
  std::printf("%s\nwrote %s/{batch.json, batch.md, batch.svg}\n", md.c_str(), p.out.c_str());
}

}  // namespace reader::cli
