// reader datastore build | info: the long-term datastore (a suffix array over responses).
#include <fmt/format.h>

#include <cstdio>
#include <memory>

#include "cli_common.h"
#include "corpus_reader.h"
#include "progress.h"
#include "prompt_sets.h"
#include "reader/datastore.h"

namespace reader::cli {

std::vector<std::string> default_corpus_files(const std::filesystem::path& model_path) {
  std::vector<std::string> files = default_prompt_files();  // their responses, not prompts
  const auto own = default_responses_path(model_path);
  if (std::filesystem::is_regular_file(own)) files.push_back(own.string());
  return files;
}

namespace {

struct BuildFlags {
  std::string model = default_model_path().string();
  std::vector<std::string> inputs;
  std::string out;
  CorpusOptions corpus;
};

void run_build(const BuildFlags& f) {
  const std::vector<std::string> inputs =
      f.inputs.empty() ? default_corpus_files(f.model) : f.inputs;
  if (f.inputs.empty())
    for (const auto& in : inputs) std::printf("input %s\n", in.c_str());
  const std::string out = f.out.empty() ? default_datastore_path(f.model).string() : f.out;
  for (const auto& in : inputs)
    if (!std::filesystem::is_regular_file(in)) throw UsageError("cannot read input file: " + in);
  std::vector<std::filesystem::path> keep(inputs.begin(), inputs.end());
  keep.emplace_back(f.model);
  check_output_path(out, "--out", keep);
  ModelOptions mo;
  mo.path = f.model;
  mo.vocab_only = true;  // the tokenizer is all a build needs
  auto model = Model::load(mo);

  uint64_t total_bytes = 0, done_bytes = 0;
  for (const auto& in : inputs) total_bytes += std::filesystem::file_size(in);
  const auto t0 = std::chrono::steady_clock::now();
  ProgressBar index_bar("indexing  ");
  BuilderOptions bo;
  bo.progress = [&](double fraction, std::string_view stage) {
    index_bar.update(fraction, std::string(stage));
  };
  DatastoreBuilder builder(bo);
  ProgressBar tokenize_bar("tokenizing");
  CorpusStats all;
  for (const auto& in : inputs) {
    const uint64_t file_bytes = std::filesystem::file_size(in);
    uint64_t seen = 0;
    const CorpusStats s = read_corpus_file(in, f.corpus, [&](const std::string& doc) {
      require_utf8(doc, "a document in " + in);
      builder.add_document(model->tokenize(doc, false, false));
      seen += doc.size();
      tokenize_bar.update(static_cast<double>(done_bytes + std::min(seen, file_bytes)) /
                              static_cast<double>(total_bytes),
                          fmt::format("{} docs", builder.document_count()));
    });
    done_bytes += file_bytes;
    all.documents += s.documents;
    all.bytes += s.bytes;
    all.malformed_lines += s.malformed_lines;
    all.missing_field += s.missing_field;
  }
  tokenize_bar.finish(
      fmt::format("{} docs, {} tokens", builder.document_count(), builder.token_count()));
  if (builder.document_count() == 0) throw UsageError("the corpus has no non-empty documents");

  DatastoreMeta meta;
  meta.vocab_size = static_cast<uint32_t>(model->n_vocab());
  meta.tokenizer_fingerprint = model->tokenizer_fingerprint();
  meta.tokenizer_name = std::filesystem::path(f.model).filename().string().substr(0, 63);
  // Written whole and then renamed into place (atomic_file.h), so a file already there is only
  // replaced by a complete datastore; say so, since the default --out is the default datastore.
  const bool replacing = std::filesystem::exists(out);
  const BuildSummary sum = builder.write(out, meta);
  index_bar.finish();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf(
      "datastore %s%s\n  documents %llu (%llu empty skipped, %llu malformed lines skipped, %llu "
      "without the field)\n"
      "  tokens %llu | text %.1f MB | file %.1f MB (%.2f bytes/token)\n  %.1f s total (suffix "
      "array %.2f s) | peak RSS %.0f MB\n",
      out.c_str(), replacing ? " (replaced the file that was there)" : "",
      static_cast<unsigned long long>(sum.document_count),
      static_cast<unsigned long long>(sum.skipped_empty_documents),
      static_cast<unsigned long long>(all.malformed_lines),
      static_cast<unsigned long long>(all.missing_field),
      static_cast<unsigned long long>(sum.token_count), static_cast<double>(all.bytes) / 1e6,
      static_cast<double>(sum.file_bytes) / 1e6,
      static_cast<double>(sum.file_bytes) / static_cast<double>(sum.token_count), secs,
      sum.suffix_array_seconds, static_cast<double>(peak_rss_bytes()) / 1e6);
}

void run_info(const std::string& path) {
  const Datastore ds = Datastore::open(path);
  std::printf(
      "path             %s\ntokens           %llu (separators included)\ndocuments        %llu\n"
      "vocabulary       %u\ntokenizer        %s (fingerprint %016llx)\ntoken width      %u bytes\n"
      "file             %.1f MB (%.2f bytes/token)\n",
      path.c_str(), static_cast<unsigned long long>(ds.token_count()),
      static_cast<unsigned long long>(ds.document_count()), ds.vocab_size(),
      ds.meta().tokenizer_name.c_str(),
      static_cast<unsigned long long>(ds.meta().tokenizer_fingerprint), ds.token_width(),
      static_cast<double>(ds.memory_bytes()) / 1e6,
      static_cast<double>(ds.memory_bytes()) / static_cast<double>(ds.token_count()));
}

}  // namespace

void add_datastore_command(CLI::App& app) {
  CLI::App* ds = app.add_subcommand("datastore", "build or inspect a long-term datastore");
  ds->require_subcommand(1);
  auto flags = std::make_shared<BuildFlags>();
  CLI::App* build =
      ds->add_subcommand("build", "tokenize a corpus and index it with a suffix array");
  build->add_option("-m,--model", flags->model, "GGUF whose tokenizer to use")
      ->capture_default_str();
  build->add_option(
      "-i,--input", flags->inputs,
      "text, JSONL or JSON-array files (default: ../shared/data corpus + GSM8K train, and the "
      "model's own answers from 'reader datastore generate' if written)");
  build->add_option("-o,--out", flags->out, "output file (default: models/<model>.rds)");
  CLI::Option* field = build->add_option(
      "--field", flags->corpus.field,
      "JSON field holding the document (default: first of response/output/answer/completion/text)");
  build->add_flag("--strict", flags->corpus.strict,
                  "fail on a malformed JSON line instead of skipping it");
  build->add_flag("--lines", flags->corpus.text_lines, "plain text: one document per line")
      ->excludes(field);  // plain text has no fields
  build->callback([flags] { run_build(*flags); });
  add_datastore_generate_command(*ds);

  auto info_path = std::make_shared<std::string>();
  CLI::App* info = ds->add_subcommand("info", "print a datastore's header");
  info->add_option("path", *info_path, "datastore file")->required();
  info->callback([info_path] { run_info(*info_path); });
}

}  // namespace reader::cli
