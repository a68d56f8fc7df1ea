#include "cli_common.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>

#include "retrieval/atomic_file.h"
#include "util/read_file.h"

namespace reader::cli {

namespace {
// Writes and flushes `text`; 0, or the errno of the first failure.
int write_all(std::FILE* f, std::string_view text) {
  if (std::fwrite(text.data(), 1, text.size(), f) != text.size() || std::fflush(f) != 0)
    return errno;
  return 0;
}
}  // namespace

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) {
    std::FILE* f = std::fopen(path.c_str(), "w");
    if (!f) throw UsageError("cannot write " + path.string() + ": " + std::strerror(errno));
    const int err = write_all(f, text);
    const bool closed = std::fclose(f) == 0;
    if (err != 0 || !closed)
      throw UsageError("cannot write " + path.string() + ": " + std::strerror(err ? err : errno));
    return;
  }
  try {
    detail::AtomicFile out(path);
    out.append(text.data(), text.size());
    out.commit();
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
}

void write_stdout(std::string_view text) {
  if (const int err = write_all(stdout, text))
    throw UsageError(std::string("cannot write the output: ") + std::strerror(err));
}

std::string read_text_file(const std::filesystem::path& path) {
  std::string problem;
  std::optional<std::string> text = read_small_file(path, problem);
  if (!text) throw UsageError("cannot read file " + path.string() + ": " + problem);
  return std::move(*text);
}

void check_output_path(const std::filesystem::path& path, std::string_view what,
                       const std::vector<std::filesystem::path>& keep, bool directory) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const std::string name = std::string(what) + " " + path.string();
  if (path.empty()) throw UsageError(std::string(what) + " is empty");
  if (!directory && fs::is_directory(path, ec)) throw UsageError(name + " is a directory");
  if (directory && fs::exists(path, ec) && !fs::is_directory(path, ec))
    throw UsageError(name + " exists and is not a directory");
  for (const fs::path& in : keep)
    if (fs::exists(path, ec) && fs::exists(in, ec) && fs::equivalent(path, in, ec))
      throw UsageError(name + " is also an input (" + in.string() + "): refusing to overwrite it");
  // A device or pipe (/dev/stdout) is written in place (write_file): it needs no folder.
  if (!directory && fs::exists(path, ec) && !fs::is_regular_file(path, ec)) {
    if (::access(path.c_str(), W_OK) != 0) throw UsageError(name + ": not writable");
    return;
  }
  // The folder the file lands in (for a directory output: its nearest existing ancestor).
  fs::path folder = fs::absolute(path, ec).parent_path();
  if (directory) folder = fs::absolute(path, ec);
  while (directory && !folder.empty() && !fs::exists(folder, ec) && folder != folder.root_path())
    folder = folder.parent_path();
  if (!fs::is_directory(folder, ec))
    throw UsageError(name + ": output directory does not exist (" + folder.string() + ")");
  // Try it: permission bits say nothing for root, nor for /proc or a read-only mount.
  const fs::path probe = folder / (".reader-write-test-" + std::to_string(::getpid()));
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
  if (fd < 0) throw UsageError(name + ": cannot create files in " + folder.string());
  ::close(fd);
  ::unlink(probe.c_str());
}

bool is_valid_utf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    size_t len = 0;
    uint32_t cp = 0;
    if (c < 0x80) {
      ++i;
      continue;
    }
    if ((c >> 5) == 0x6) {
      len = 2;
      cp = c & 0x1F;
    } else if ((c >> 4) == 0xE) {
      len = 3;
      cp = c & 0x0F;
    } else if ((c >> 3) == 0x1E) {
      len = 4;
      cp = c & 0x07;
    } else
      return false;
    if (i + len > s.size()) return false;
    for (size_t k = 1; k < len; ++k) {
      const auto cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3F);
    }
    // Overlong forms, surrogates and out-of-range code points are invalid too.
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
        cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
      return false;
    i += len;
  }
  return true;
}

void require_utf8(std::string_view text, std::string_view what) {
  if (!is_valid_utf8(text)) throw UsageError(std::string(what) + " is not valid UTF-8");
}

void ModelFlags::add_to(CLI::App& app) {
  app.add_option("-m,--model", model_path, "GGUF model file")->capture_default_str();
  app.add_option("--ctx", ctx, "context size in tokens (KV-cache cells)")
      ->capture_default_str()
      ->check(CLI::Range(64, 1 << 20));
  app.add_option("-t,--threads", threads, "CPU threads (0: all)")->check(CLI::Range(0, 1024));
  app.add_flag("-v,--verbose", verbose, "show llama.cpp's log");
  auto* fa_on = app.add_flag("--flash-attn", flash_attn_on,
                             "llama.cpp flash attention on (needed by --kv-type q8_0; the "
                             "default where llama.cpp was built for AVX-512, README)");
  auto* fa_off = app.add_flag("--no-flash-attn", flash_attn_off,
                              "flash attention off: llama.cpp's matmul attention");
  fa_on->excludes(fa_off);
  auto* repack_on_flag = app.add_flag(
      "--repack", repack_on,
      "weights repacked once at load for the CPU kernels (llama.cpp's extra buffers; the "
      "default where our Q8_0 AVX512-VNNI repack applies, README)");
  auto* repack_off_flag =
      app.add_flag("--no-repack", repack_off, "weights as the file holds them (no extra buffers)");
  repack_on_flag->excludes(repack_off_flag);
  app.add_option("--graph-cache", graph_cache,
                 "compute graphs of other batch sizes llama.cpp keeps ready (0: rebuild at "
                 "every change of size, as upstream; docs/tree-sizes.md, session 23)")
      ->capture_default_str()
      ->check(CLI::Range(0, 64));
  app.add_option("--kv-type", kv_type, "KV-cache type: f16, f32 or q8_0")
      ->capture_default_str()
      ->check(CLI::IsMember({"f16", "f32", "q8_0"}));
  app.add_option("--gpu-layers", gpu_layers,
                 "layers to offload to a GPU, -1: all (needs llama.cpp built with a GPU "
                 "backend; README, \"GPU\")")
      ->capture_default_str()
      ->envname("READER_GPU_LAYERS")
      ->check(CLI::Range(-1, 1 << 16));
  app.add_flag("--pad-decodes", pad_decodes,
               "pad each decode of 2-32 tokens to a power of two, so that a GPU replays a few "
               "captured graphs (measured slower overall; README, \"GPU\")");
}

ModelOptions ModelFlags::options(int n_seq_max) const {
  ModelOptions o;
  o.path = model_path;
  o.n_ctx = ctx;
  o.n_threads = threads;
  o.n_seq_max = n_seq_max;
  o.verbose = verbose;
  o.offload(gpu_layers);
  if (flash_attn_on) o.flash_attn = true;
  if (flash_attn_off) o.flash_attn = false;
  o.kv_type = kv_type;
  if (repack_on) o.extra_buffers = true;
  if (repack_off) o.extra_buffers = false;
  o.graph_cache = graph_cache;
  o.pad_decodes = pad_decodes;
  return o;
}

}  // namespace reader::cli

namespace reader::cli {

void MethodInputs::add_to(CLI::App& app) {
  app.add_option("--datastore", datastore,
                 "long-term datastore from 'reader datastore build'; auto: models/<model>.rds if "
                 "built; none")
      ->capture_default_str();
  app.add_option("--tree", tree, "tree-shape JSON file (default: the method's shape for this CPU)");
  app.add_option("--draft-model", draft_model,
                 "draft GGUF sharing the model's vocabulary (method draft)");
  app.add_option("--profile", profile,
                 "tuning profile from 'reader tune'; auto: models/<model>.profile.json if present; "
                 "none")
      ->capture_default_str();
  app.add_option("--suffix-max-spec", suffix.max_spec_tokens,
                 "method suffix: drafted tokens per step at most")
      ->capture_default_str()
      ->check(CLI::Range(1, 1024));
  app.add_option("--suffix-spec-factor", suffix.max_spec_factor,
                 "method suffix: draft length <= factor x matched context length")
      ->capture_default_str()
      ->check(CLI::Range(0.0f, 1000.0f));
  app.add_option("--suffix-min-prob", suffix.min_token_prob,
                 "method suffix: stop a draft where its estimated probability falls below")
      ->capture_default_str()
      ->check(CLI::Range(0.0f, 1.0f));
  app.add_flag("--fixed-cost", fixed_cost,
               "price verification steps with the profile's cost curve only, not corrected by "
               "the step times this run measures (drafting then repeats exactly from run to run)");
}

std::vector<std::filesystem::path> MethodInputs::files(
    const std::filesystem::path& model_path) const {
  std::vector<std::filesystem::path> out = {model_path};
  if (datastore != "none")
    out.push_back(datastore == "auto" ? default_datastore_path(model_path)
                                      : std::filesystem::path(datastore));
  if (profile != "none")
    out.push_back(profile == "auto" ? default_profile_path(model_path)
                                    : std::filesystem::path(profile));
  for (const std::string& f : {tree, draft_model})
    if (!f.empty()) out.emplace_back(f);
  return out;
}

MethodConfig LoadedInputs::config(Method method) const {
  MethodConfig c;
  c.method = method;
  c.shape = shape;
  c.datastore = datastore.get();
  c.draft_model = draft_model.get();
  c.draft_cost = draft_cost;
  c.profile = profile ? &*profile : nullptr;
  c.suffix = suffix;
  c.adapt_cost = adapt_cost;
  return c;
}

std::optional<Profile> load_profile_flag(const std::string& flag, const Model& model) {
  if (flag == "none") return std::nullopt;
  std::filesystem::path path = flag;
  if (flag == "auto") {  // the model's own profile, if `reader tune` wrote one
    path = default_profile_path(model.options().path);
    if (!std::filesystem::exists(path)) return std::nullopt;
  }
  try {
    Profile p = load_profile(path);
    check_profile_matches(p, model, path);
    if (p.refiner_outdated)
      std::fprintf(stderr,
                   "reader: warning: profile %s holds a refiner of the estimates from another "
                   "build, left unused; 'reader tune --if-stale' fits this build's (2 minutes)\n",
                   path.string().c_str());
    return p;
  } catch (const ProfileError& e) {
    throw UsageError(e.what());
  }
}

namespace {
// Retrieval's priors hold for the datastore a profile was calibrated with (its counts and
// match lengths mean other things in another corpus): say so when this run's differs.
void warn_if_calibrated_elsewhere(const LoadedInputs& in, Method method) {
  if (!in.profile || in.profile->datastore.empty()) return;  // profiles before the field
  if (method != Method::kReader && method != Method::kRetrieval) return;
  const std::string now = datastore_identity(in.datastore.get());
  if (now == in.profile->datastore) return;
  std::fprintf(stderr,
               "reader: warning: the profile was calibrated with datastore '%s', this run uses "
               "'%s'; 'reader tune --datastore ...' calibrates for it\n",
               in.profile->datastore.c_str(), now.c_str());
}
}  // namespace

LoadedInputs load_method_inputs(const MethodInputs& in, Model& model, Method method) {
  LoadedInputs out;
  out.suffix = in.suffix;
  out.adapt_cost = !in.fixed_cost;
  if (!in.tree.empty() && method != Method::kAutoregressive) {
    out.shape = load_tree_shape(in.tree);
    out.shape->validate_for(model.n_seq_max(), model.options().kv_unified);
  }
  std::string ds_path = in.datastore;
  if (ds_path == "auto") {  // the default datastore for this model, if one was built
    ds_path = default_datastore_path(model.options().path).string();
    if (!std::filesystem::exists(ds_path) || method == Method::kAutoregressive) ds_path.clear();
  } else if (ds_path == "none") {
    ds_path.clear();
  }
  if (!ds_path.empty()) {
    out.datastore = std::make_unique<Datastore>(Datastore::open(ds_path));
    out.datastore->check_tokenizer(model.tokenizer_fingerprint(),
                                   static_cast<uint32_t>(model.n_vocab()));
  }
  out.profile = load_profile_flag(in.profile, model);
  warn_if_calibrated_elsewhere(out, method);
  if (method == Method::kDraft && in.draft_model.empty())
    throw UsageError("method 'draft' needs --draft-model");
  if (!in.draft_model.empty()) {
    ModelOptions o = model.options();
    o.path = in.draft_model;
    out.draft_model = Model::load(o);
    if (out.draft_model->n_vocab() != model.n_vocab() ||
        out.draft_model->tokenizer_fingerprint() != model.tokenizer_fingerprint())
      throw UsageError("draft model " + in.draft_model + " has a different vocabulary (" +
                       std::to_string(out.draft_model->n_vocab()) + " tokens vs " +
                       std::to_string(model.n_vocab()) + ")");
    out.draft_cost = relative_decode_cost(*out.draft_model, model);
  }
  return out;
}

nlohmann::json generation_to_json(const GenerationResult& r) {
  const GenerationStats& s = r.stats;
  nlohmann::json by_source, drafted_by_source;
  for (size_t i = 0; i < s.accepted_by_source.size(); ++i) {
    const std::string name(to_string(static_cast<DraftSource>(i)));
    by_source[name] = s.accepted_by_source[i];
    drafted_by_source[name] = s.drafted_by_source[i];
  }
  return {{"prompt_tokens", s.prompt_tokens},
          {"generated_tokens", s.generated_tokens},
          {"prefill_ms", s.prefill_ms},
          {"decode_ms", s.decode_ms},
          {"tokens_per_s", s.tokens_per_second()},
          {"steps", s.steps},
          {"mean_accepted", s.mean_accepted()},
          {"accepted_histogram", s.accepted_histogram},
          {"verified_histogram", s.verified_histogram},
          {"verify_ms_by_size", s.verify_ms_by_size},
          {"accepted_by_source", by_source},
          {"drafted_tokens", s.drafted_tokens},
          {"drafted_by_source", drafted_by_source},
          {"draft_ms", s.draft_ms},
          {"verify_ms", s.verify_ms},
          {"bookkeeping_ms", s.bookkeeping_ms},
          {"kv_compactions", s.kv_compactions},
          {"stop_reason", to_string(r.stop_reason)}};
}

}  // namespace reader::cli
