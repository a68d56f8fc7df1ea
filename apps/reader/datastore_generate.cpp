// reader datastore generate: the model's own answers to a corpus's prompts, as the text of its
// datastore. The paper fills the datastore with responses "ideally produced by the base
// model": a datastore in the model's own phrasing predicts what it writes next better than
// another model's text does (docs/calibration.md, session 28). Greedy, batched with one KV
// stream per sequence, so every answer is the one the model gives alone.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>

#include "cli_common.h"
#include "corpus_reader.h"
#include "progress.h"
#include "prompt_sets.h"
#include "reader/engine.h"
#include "retrieval/atomic_file.h"

namespace reader::cli {

std::vector<std::string> default_prompt_files() {
  const auto dir = default_data_dir();
  return {(dir / "corpus/gpteacher_codegen_instruct.json").string(),
          (dir / "corpus/gpteacher_roleplay_instruct.json").string(),
          (dir / "gsm8k/train.jsonl").string()};
}

std::filesystem::path default_responses_path(const std::filesystem::path& model_path) {
  auto p = default_datastore_path(model_path);
  return p.replace_extension(".responses.jsonl");
}

namespace {

struct GenerateFlags {
  ModelFlags model;
  std::vector<std::string> inputs;
  int per_file = 1000;  // prompts taken from each input, evenly spaced through it
  int max_tokens = 256;
  int parallel = 8;  // sequences decoded together (8 had the best tokens/s per cost here)
  std::string out;
};

struct PromptRecord {
  std::string source;  // input file's stem
  size_t index = 0;    // record number within that file (0-based, records with a prompt)
  std::string prompt;  // user message
};

// `count` records spread evenly over each file (all of a smaller file), in file order.
std::vector<PromptRecord> pick_prompts(const std::vector<std::string>& inputs, int count) {
  std::vector<PromptRecord> picked;
  CorpusOptions opts;
  opts.prompts = true;
  for (const auto& in : inputs) {
    std::vector<std::string> all;
    read_corpus_file(in, opts, [&](const std::string& p) { all.push_back(p); });
    const size_t n = std::min(all.size(), static_cast<size_t>(count));
    const std::string source = std::filesystem::path(in).stem().string();
    for (size_t k = 0; k < n; ++k) {
      const size_t i = k * all.size() / n;
      require_utf8(all[i], fmt::format("record {} of {}", i, in));
      picked.push_back({source, i, std::move(all[i])});
    }
  }
  return picked;
}

void run_generate(const GenerateFlags& f) {
  const std::vector<std::string> inputs = f.inputs.empty() ? default_prompt_files() : f.inputs;
  const std::string out =
      f.out.empty() ? default_responses_path(f.model.model_path).string() : f.out;
  for (const auto& in : inputs)
    if (!std::filesystem::is_regular_file(in)) throw UsageError("cannot read input file: " + in);
  std::vector<std::filesystem::path> keep(inputs.begin(), inputs.end());
  keep.emplace_back(f.model.model_path);
  check_output_path(out, "--out", keep);
  std::vector<PromptRecord> records = pick_prompts(inputs, f.per_file);
  if (records.empty()) throw UsageError("the inputs hold no prompts");

  ModelOptions mo = f.model.options(f.parallel);
  mo.kv_unified = false;  // one stream per sequence: each answer as it would be alone
  auto model = Model::load(mo);
  if (!model->has_chat_template())
    throw UsageError("the model has no chat template: its answers would not be answers");
  EngineOptions eo;
  eo.max_sequences = f.parallel;
  eo.max_waiting = static_cast<int>(records.size());
  eo.reuse_prefix = false;
  Engine engine(*model, eo);

  std::vector<std::string> answers(records.size());
  size_t done = 0, skipped = 0;
  uint64_t tokens = 0;
  GenerationOptions go;
  go.max_tokens = f.max_tokens;
  for (size_t i = 0; i < records.size(); ++i) {
    Request r;
    r.prompt = model->tokenize(model->apply_chat_template(records[i].prompt), true, true);
    r.options = go;
    // The answer must fit beside the prompt in its sequence's cells.
    if (static_cast<int>(r.prompt.size()) + f.max_tokens > model->n_ctx()) {
      ++skipped;
      continue;
    }
    r.on_done = [&, i](GenerationResult g) {
      answers[i] = std::move(g.text);
      tokens += g.tokens.size();
      ++done;
    };
    engine.submit(std::move(r));
  }
  const size_t submitted = records.size() - skipped;
  if (submitted == 0)
    throw UsageError(fmt::format("every prompt with its {} answer tokens is longer than --ctx {}",
                                 f.max_tokens, model->n_ctx()));
  ProgressBar bar("generating");
  const auto t0 = std::chrono::steady_clock::now();
  while (engine.step()) {
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    bar.update(static_cast<double>(done) / static_cast<double>(submitted),
               fmt::format("{}/{} answers, {:.0f} tokens/s", done, submitted, tokens / s));
  }
  bar.finish(fmt::format("{} answers, {} tokens", done, tokens));

  // Written whole or not at all: an interrupted run leaves no partial file to build from.
  detail::AtomicFile file(out);
  size_t written = 0;
  for (size_t i = 0; i < records.size(); ++i) {
    if (answers[i].empty()) continue;  // skipped, or the model ended at once
    const nlohmann::json line = {{"source", records[i].source},
                                 {"index", records[i].index},
                                 {"prompt", records[i].prompt},
                                 {"response", answers[i]}};
    const std::string text =
        line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + '\n';
    file.append(text.data(), text.size());
    ++written;
  }
  file.commit();
  std::printf(
      "wrote %s: %zu answers (%zu empty, %zu prompts too long for --ctx skipped), %llu "
      "tokens\n",
      out.c_str(), written, done - written, skipped, static_cast<unsigned long long>(tokens));
}

}  // namespace

void add_datastore_generate_command(CLI::App& datastore) {
  auto f = std::make_shared<GenerateFlags>();
  f->model.ctx = 1024;
  CLI::App* cmd = datastore.add_subcommand(
      "generate", "write the model's own greedy answers to a corpus's prompts (datastore text)");
  f->model.add_to(*cmd);
  cmd->add_option("-i,--input", f->inputs,
                  "JSON/JSONL files of prompts: instruction (+ input), question or prompt "
                  "(default: ../shared/data corpus + GSM8K train)");
  cmd->add_option("--per-file", f->per_file, "prompts from each input, evenly spaced")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000000));
  cmd->add_option("-n,--max-tokens", f->max_tokens, "tokens per answer at most")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--parallel", f->parallel, "sequences decoded together")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  cmd->add_option("-o,--out", f->out,
                  "output JSONL (default: models/<model>.responses.jsonl, which the default "
                  "datastore build reads)");
  cmd->callback([f] { run_generate(*f); });
}

}  // namespace reader::cli
