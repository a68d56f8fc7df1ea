// reader generate: text from a prompt, streamed to stdout; a summary line to stderr.
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "cli_common.h"
#include "json_text.h"
#include "reader/generate.h"
#include "reader/methods.h"

namespace reader::cli {
namespace {

struct GenerateFlags {
  ModelFlags model;
  std::optional<std::string> prompt;
  std::optional<std::string> prompt_file;
  bool chat = false;  // require the chat template (default: use it when the model has one)
  bool raw = false;   // plain completion: the prompt text as is
  int max_tokens = 128;
  float temp = 0.0f;
  int top_k = 0;
  float top_p = 1.0f;
  uint64_t seed = 0;
  std::vector<std::string> stop;
  std::string stats_json;
  std::string method = "reader";
  MethodInputs inputs;
};

void run_generate(const GenerateFlags& f) {
  if (f.prompt.has_value() == f.prompt_file.has_value())
    throw UsageError("give exactly one of --prompt or --prompt-file");
  // "-f -" reads the prompt from standard input, as `echo ... | reader generate -f -`.
  const bool from_stdin = f.prompt_file && *f.prompt_file == "-";
  const std::filesystem::path prompt_path =
      from_stdin ? "/dev/stdin" : f.prompt_file.value_or(std::string());
  if (!f.stats_json.empty()) {
    std::vector<std::filesystem::path> inputs = f.inputs.files(f.model.model_path);
    if (f.prompt_file && !from_stdin) inputs.emplace_back(prompt_path);
    check_output_path(f.stats_json, "--stats-json", inputs);
  }
  std::string prompt_text = f.prompt ? *f.prompt : read_text_file(prompt_path);
  require_utf8(prompt_text, f.prompt     ? std::string("--prompt")
                            : from_stdin ? std::string("the prompt on standard input")
                                         : "prompt file " + *f.prompt_file);
  if (prompt_text.empty()) throw UsageError("the prompt is empty");

  const Method method = parse_method(f.method);
  auto model = Model::load(f.model.options(method == Method::kAutoregressive ? 1 : 64));
  LoadedInputs inputs = load_method_inputs(f.inputs, *model, method);
  // Like llama.cpp's CLI, the prompt is a user message by default: an instruct model given
  // raw text often ends its turn at once and prints nothing.
  const bool has_template = model->has_chat_template();
  if (f.chat && !has_template)
    throw UsageError("--chat: the model has no chat template (drop --chat for raw completion)");
  if (!f.raw && !f.chat && !has_template)
    std::fprintf(stderr, "reader: note: the model has no chat template; the prompt is raw text\n");
  Tokens prompt;
  if (!f.raw && has_template) {
    prompt = model->tokenize(model->apply_chat_template(prompt_text), true, true);
  } else {
    prompt = model->tokenize(prompt_text, true, false);
  }

  GenerationOptions opts;
  opts.max_tokens = f.max_tokens;
  opts.sampling = {f.temp, f.top_k, f.top_p, f.seed};
  opts.stop = f.stop;
  Generator generator(*model, inputs.config(method));
  GenerationResult r = generator.run(prompt, opts, write_stdout);
  write_stdout("\n");
  std::fprintf(stderr,
               "[%s] %d prompt + %d generated tokens | prefill %.0f ms | %.1f tok/s | %.2f "
               "tokens/step | stop: %s\n",
               f.method.c_str(), r.stats.prompt_tokens, r.stats.generated_tokens,
               r.stats.prefill_ms, r.stats.tokens_per_second(), r.stats.mean_accepted(),
               std::string(to_string(r.stop_reason)).c_str());
  if (!f.stats_json.empty()) write_file(f.stats_json, dump_json(generation_to_json(r), 2) + "\n");
}

}  // namespace

void add_generate_command(CLI::App& app) {
  auto flags = std::make_shared<GenerateFlags>();
  CLI::App* cmd = app.add_subcommand("generate", "generate text from a prompt");
  flags->model.add_to(*cmd);
  cmd->add_option("-p,--prompt", flags->prompt,
                  "prompt text: the user message of a one-turn chat (--raw: plain text)");
  cmd->add_option("-f,--prompt-file", flags->prompt_file,
                  "read the prompt from this file (-: standard input)");
  CLI::Option* chat = cmd->add_flag(
      "--chat", flags->chat,
      "require the model's chat template (the default uses it when the model has one)");
  cmd->add_flag("--raw", flags->raw,
                "raw completion: the prompt as plain text, without the chat template")
      ->excludes(chat);
  cmd->add_option("-n,--max-tokens", flags->max_tokens, "tokens to generate at most")
      ->capture_default_str()
      ->check(CLI::Range(1, 1 << 24));  // an integer range: its error names integer bounds
  cmd->add_option("--temp", flags->temp, "temperature (0: greedy)")
      ->capture_default_str()
      ->check(CLI::Range(0.0f, 100.0f));
  cmd->add_option("--top-k", flags->top_k, "top-k filter (0: off)")->check(CLI::Range(0, 1 << 24));
  cmd->add_option("--top-p", flags->top_p, "top-p (nucleus) filter (1: off)")
      ->check(CLI::Range(1e-6f, 1.0f));
  cmd->add_option("--seed", flags->seed, "sampling seed")->capture_default_str();
  cmd->add_option("--stop", flags->stop, "stop string (repeatable)");
  cmd->add_option("--stats-json", flags->stats_json, "write run statistics to this JSON file");
  cmd->add_option("--method", flags->method, "ar | reader | retrieval | recycling | draft | suffix")
      ->capture_default_str();
  flags->inputs.add_to(*cmd);
  cmd->callback([flags] { run_generate(*flags); });
}

}  // namespace reader::cli
