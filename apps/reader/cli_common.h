// Helpers shared by the reader subcommands: errors, input files, model loading.
#pragma once

#include <CLI/CLI.hpp>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "reader/datastore.h"
#include "reader/methods.h"
#include "reader/model.h"
#include "reader/profile.h"

namespace reader::cli {

// A user-facing failure: printed as one line "reader: error: ...", exit code 1.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

std::string read_text_file(const std::filesystem::path& path);
// Writes `text` to `path`; throws UsageError naming the file when it cannot. A regular file
// is replaced only once the whole text is on disk (a full disk leaves the old one); a device
// or pipe (/dev/stdout) is written in place, its last write checked too.
void write_file(const std::filesystem::path& path, const std::string& text);
// Writes generated text to stdout; throws UsageError when it cannot (a full disk, a closed
// descriptor), so that a lost output is an error, not a silent success.
void write_stdout(std::string_view text);
// Checks, before any work, that `path` can be written: not a directory, its folder exists
// and is writable, and it is none of `keep` (inputs the command reads: writing over one
// would destroy it). Throws UsageError naming `what` (e.g. "--out"). With `directory`,
// `path` is a folder the command creates: its nearest existing ancestor must be writable.
void check_output_path(const std::filesystem::path& path, std::string_view what,
                       const std::vector<std::filesystem::path>& keep = {}, bool directory = false);
bool is_valid_utf8(std::string_view s);
// Throws UsageError naming `what` unless `text` is valid UTF-8.
void require_utf8(std::string_view text, std::string_view what);

// Options every model-using command shares.
struct ModelFlags {
  std::string model_path = default_model_path().string();
  int ctx = 4096;
  int threads = 0;
  bool verbose = false;
  bool flash_attn_on = false;   // --flash-attn
  bool flash_attn_off = false;  // --no-flash-attn (neither: flash_attn_by_default())
  std::string kv_type = "f16";
  bool repack_on = false;                        // --repack
  bool repack_off = false;                       // --no-repack (neither: repack_by_default())
  int graph_cache = ModelOptions{}.graph_cache;  // --graph-cache
  int gpu_layers = 0;                            // --gpu-layers (or $READER_GPU_LAYERS)
  bool pad_decodes = false;                      // --pad-decodes
  void add_to(CLI::App& app);
  ModelOptions options(int n_seq_max = 1) const;
};

// Inputs of the speculative methods: datastore, tree shape, draft model.
struct MethodInputs {
  std::string datastore = "auto";  // long-term datastore file; "auto": the model's default; "none"
  std::string tree;                // tree-shape JSON ("" = the method's default)
  std::string draft_model;         // GGUF for method "draft"
  std::string profile = "auto";    // reader tune's profile; "auto": the model's; "none"
  SuffixParams suffix;             // method "suffix" (ArcticInference's defaults)
  bool fixed_cost = false;         // --fixed-cost: the profile's curve, not this run's steps
  void add_to(CLI::App& app);
  // The model and the files these flags read for it ("auto" resolved, "none" left out): what
  // an output flag must never overwrite.
  std::vector<std::filesystem::path> files(const std::filesystem::path& model_path) const;
};
// What MethodInputs loads: owned objects the Generator points at.
struct LoadedInputs {
  std::unique_ptr<Datastore> datastore;
  std::unique_ptr<Model> draft_model;
  double draft_cost = 0;  // its one-token decode over the model's, measured once here
  std::optional<TreeShape> shape;
  std::optional<Profile> profile;
  SuffixParams suffix;
  bool adapt_cost = true;  // !MethodInputs::fixed_cost
  MethodConfig config(Method method) const;
};
// Loads and checks everything before generation starts (vocabularies, tree budget).
LoadedInputs load_method_inputs(const MethodInputs& in, Model& model, Method method);

// --profile: "auto" (the model's profile if present), "none", or a file; checked against
// the model. Throws UsageError with the profile's one-line problem.
std::optional<Profile> load_profile_flag(const std::string& flag, const Model& model);

nlohmann::json generation_to_json(const GenerationResult& r);

// The corpus of the default datastore (`reader datastore build` without --input): the shared
// corpus's responses, and the model's own answers (default_responses_path) where `reader
// datastore generate` wrote them.
std::vector<std::string> default_corpus_files(const std::filesystem::path& model_path);
// The prompts `reader datastore generate` answers by default: the shared corpus's
// instructions and GSM8K train's questions.
std::vector<std::string> default_prompt_files();
// Where `reader datastore generate` writes a model's answers: models/<model>.responses.jsonl.
std::filesystem::path default_responses_path(const std::filesystem::path& model_path);

// Registration hooks, one per subcommand file.
void add_generate_command(CLI::App& app);
void add_datastore_command(CLI::App& app);
void add_datastore_generate_command(CLI::App& datastore);  // under `datastore`
void add_repetition_command(CLI::App& app);
void add_bench_command(CLI::App& app);
void add_demo_command(CLI::App& app);
void add_quantize_command(CLI::App& app);
void add_tune_command(CLI::App& app);
void add_serve_command(CLI::App& app);

}  // namespace reader::cli
