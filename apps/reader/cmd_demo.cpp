// reader demo: READER against autoregressive decoding on a built-in retrieval-style
// prompt; prints both speeds and whether the outputs are identical.
#include <cstdio>
#include <memory>
#include <vector>

#include "bench_report.h"
#include "cli_common.h"
#include "reader/methods.h"

namespace reader::cli {
namespace {

constexpr const char* kDemoPrompt =
    "Read the passage and answer the question, quoting the passage where you can.\n\n"
    "Passage: The Eiffel Tower is a wrought-iron lattice tower on the Champ de Mars in Paris, "
    "France. "
    "It is named after the engineer Gustave Eiffel, whose company designed and built the tower "
    "from 1887 "
    "to 1889. Locally nicknamed \"La dame de fer\" (French for \"Iron Lady\"), it was constructed "
    "as the "
    "centerpiece of the 1889 World's Fair, and to crown the centennial anniversary of the French "
    "Revolution. Although initially criticised by some of France's leading artists and "
    "intellectuals for "
    "its design, it has since become a global cultural icon of France and one of the most "
    "recognisable "
    "structures in the world. The tower received 5,889,000 visitors in 2022. The Eiffel Tower is "
    "the most "
    "visited monument with an entrance fee in the world.\n\n"
    "Question: Who built the Eiffel Tower, when, and why?";

struct DemoFlags {
  ModelFlags model;
  MethodInputs inputs;
  int max_tokens = 128;
  int repeats = 3;
};

void run_demo(const DemoFlags& f) {
  auto model = Model::load(f.model.options(64));
  const LoadedInputs inputs = load_method_inputs(f.inputs, *model, Method::kReader);
  const Tokens prompt = model->tokenize(model->apply_chat_template(kDemoPrompt), true, true);
  GenerationOptions opts;
  opts.max_tokens = f.max_tokens;
  Generator ar(*model, inputs.config(Method::kAutoregressive));
  Generator reader(*model, inputs.config(Method::kReader));
  GenerationOptions warm;
  warm.max_tokens = 16;
  ar.run(prompt, warm);  // warm up both paths
  reader.run(prompt, warm);
  std::printf("model: %s | datastore: %s\nprompt: %d tokens (built-in RAG example)\n\n",
              model->description().c_str(),
              inputs.datastore ? inputs.datastore->path().c_str() : "none",
              static_cast<int>(prompt.size()));
  // Alternate the two methods and report medians: one run each is at the mercy of noise.
  GenerationResult a, r;
  std::vector<double> ar_speed, reader_speed;
  for (int i = 0; i < f.repeats; ++i) {
    a = ar.run(prompt, opts);
    r = reader.run(prompt, opts);
    ar_speed.push_back(a.stats.tokens_per_second());
    reader_speed.push_back(r.stats.tokens_per_second());
  }
  const double ar_tps = median(ar_speed), reader_tps = median(reader_speed);
  std::printf("--- autoregressive: %.1f tokens/s (median of %d) ---\n%s\n\n", ar_tps, f.repeats,
              a.text.c_str());
  std::printf("--- READER: %.1f tokens/s (median of %d), %.2f tokens per forward pass ---\n%s\n\n",
              reader_tps, f.repeats, r.stats.mean_accepted(), r.text.c_str());
  const bool same = a.tokens == r.tokens;
  std::printf("speedup %.2fx | outputs %s\n", reader_tps / ar_tps,
              same ? "identical" : "DIFFER (see README: Losslessness and rounding)");
}

}  // namespace

void add_demo_command(CLI::App& app) {
  auto f = std::make_shared<DemoFlags>();
  CLI::App* cmd =
      app.add_subcommand("demo", "READER vs autoregressive decoding on a built-in example");
  f->model.add_to(*cmd);
  f->inputs.add_to(*cmd);
  cmd->add_option("-n,--max-tokens", f->max_tokens, "tokens to generate")
      ->capture_default_str()
      ->check(CLI::Range(1, 4096));
  cmd->add_option("--repeats", f->repeats, "runs of each method (medians are reported)")
      ->capture_default_str()
      ->check(CLI::Range(1, 100));
  cmd->callback([f] { run_demo(*f); });
}

}  // namespace reader::cli
