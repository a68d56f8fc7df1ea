// reader repetition: the self-repetition metric (paper section 4.1, Table 1), an upper
// bound on the mean accepted length retrieval can reach on a dataset.
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_common.h"
#include "json_text.h"
#include "prompt_sets.h"
#include "reader/datastore.h"
#include "reader/repetition.h"

namespace reader::cli {
namespace {

struct RepetitionFlags {
  std::string model = default_model_path().string();
  std::string set;   // built-in prompt set (rag, humaneval, gsm8k)
  std::string data;  // or a JSONL file with flat fields
  std::string prompt_field;
  std::string response_field;
  std::string datastore;  // optional
  std::string json_out;
  int limit = 0;
};

struct Pair {
  std::string prompt, response;
};

std::vector<Pair> load_pairs(const RepetitionFlags& f) {
  std::vector<Pair> pairs;
  if (!f.set.empty()) {
    for (const PromptItem& it : load_prompt_set(f.set, default_data_dir(), f.limit))
      for (const std::string& ref : it.references) pairs.push_back({it.context, ref});
    return pairs;
  }
  if (f.data.empty()) throw UsageError("give --set NAME or --data FILE");
  if (f.prompt_field.empty() || f.response_field.empty())
    throw UsageError("--data needs --prompt-field and --response-field");
  std::istringstream in(read_file_maybe_gz(f.data));
  std::string line;
  for (int line_no = 1; std::getline(in, line); ++line_no) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    nlohmann::json r;
    try {
      r = nlohmann::json::parse(line);
    } catch (const nlohmann::json::exception&) {
      throw UsageError(f.data + ":" + std::to_string(line_no) + ": malformed JSON line");
    }
    if (!r.contains(f.prompt_field) || !r.contains(f.response_field) ||
        !r[f.prompt_field].is_string() || !r[f.response_field].is_string())
      throw UsageError(f.data + ":" + std::to_string(line_no) + ": missing string field '" +
                       f.prompt_field + "' or '" + f.response_field + "'");
    pairs.push_back({r[f.prompt_field].get<std::string>(), r[f.response_field].get<std::string>()});
    if (f.limit > 0 && static_cast<int>(pairs.size()) >= f.limit) break;
  }
  return pairs;
}

void run_repetition(const RepetitionFlags& f) {
  if (!f.json_out.empty()) {
    std::vector<std::filesystem::path> inputs = {f.model};
    for (const std::string& in : {f.data, f.datastore})
      if (!in.empty()) inputs.emplace_back(in);
    check_output_path(f.json_out, "--json", inputs);
  }
  const std::vector<Pair> pairs = load_pairs(f);
  ModelOptions mo;
  mo.path = f.model;
  mo.vocab_only = true;
  auto model = Model::load(mo);
  std::unique_ptr<Datastore> ds;
  if (!f.datastore.empty()) {
    ds = std::make_unique<Datastore>(Datastore::open(f.datastore));
    ds->check_tokenizer(model->tokenizer_fingerprint(), static_cast<uint32_t>(model->n_vocab()));
  }
  uint64_t tokens = 0, advances = 0, tokens_ds = 0, advances_ds = 0, used = 0;
  double sum_metric = 0, sum_metric_ds = 0;
  for (const Pair& p : pairs) {
    const Tokens prompt = model->tokenize(p.prompt, false),
                 response = model->tokenize(p.response, false);
    if (response.empty()) continue;
    ++used;
    const RepetitionStats s = self_repetition(prompt, response);
    tokens += s.response_tokens;
    advances += s.advances;
    sum_metric += s.metric;
    if (ds) {
      const RepetitionStats d = self_repetition(prompt, response, ds.get());
      tokens_ds += d.response_tokens;
      advances_ds += d.advances;
      sum_metric_ds += d.metric;
    }
  }
  if (advances == 0) throw UsageError("no non-empty responses");
  const double n = static_cast<double>(used);
  nlohmann::json j = {{"pairs", pairs.size()},
                      {"response_tokens", tokens},
                      {"metric", static_cast<double>(tokens) / static_cast<double>(advances)},
                      {"mean_metric", sum_metric / n}};
  std::printf(
      "pairs %zu | response tokens %llu\nself-repetition without datastore: %.2f (per-pair mean "
      "%.2f)\n",
      pairs.size(), static_cast<unsigned long long>(tokens),
      static_cast<double>(tokens) / static_cast<double>(advances), sum_metric / n);
  if (ds && advances_ds > 0) {
    const double m = static_cast<double>(tokens_ds) / static_cast<double>(advances_ds);
    j["metric_with_datastore"] = m;
    j["mean_metric_with_datastore"] = sum_metric_ds / n;
    std::printf("self-repetition with datastore:    %.2f (per-pair mean %.2f)\n", m,
                sum_metric_ds / n);
  }
  if (!f.json_out.empty()) write_file(f.json_out, dump_json(j, 2) + "\n");
}

}  // namespace

void add_repetition_command(CLI::App& app) {
  auto f = std::make_shared<RepetitionFlags>();
  CLI::App* cmd =
      app.add_subcommand("repetition", "self-repetition metric of responses (paper Table 1)");
  cmd->add_option("-m,--model", f->model, "GGUF whose tokenizer to use")->capture_default_str();
  CLI::Option* set = cmd->add_option(
      "--set", f->set, "built-in set: rag (question+passage -> answers), humaneval, gsm8k");
  // A built-in set ignores --data and its fields: naming both is refused, not half obeyed.
  set->excludes(
      cmd->add_option("--data", f->data, "JSONL file with a prompt and a response field per line"));
  set->excludes(cmd->add_option("--prompt-field", f->prompt_field, "prompt field of --data"));
  set->excludes(cmd->add_option("--response-field", f->response_field, "response field of --data"));
  cmd->add_option("--datastore", f->datastore, "also match against this datastore");
  cmd->add_option("--json", f->json_out, "write the results as JSON to this file");
  cmd->add_option("--limit", f->limit, "use at most this many records")
      ->check(CLI::Range(0, 1 << 30));
  cmd->callback([f] { run_repetition(*f); });
}

}  // namespace reader::cli
