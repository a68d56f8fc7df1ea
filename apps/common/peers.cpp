#include "peers.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "llama.h"
#include "reader/model.h"

extern char** environ;

namespace reader {
namespace {

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_text(const std::filesystem::path& p, std::string_view text) {
  std::ofstream f(p, std::ios::binary);
  if (!f || !f.write(text.data(), static_cast<std::streamsize>(text.size())))
    throw std::runtime_error("cannot write " + p.string());
}

// Runs argv with stdin from /dev/null and stdout/stderr into files; returns the exit status
// (128 + signal when killed, -1 when it could not start).
int spawn_and_wait(const std::vector<std::string>& argv, const std::filesystem::path& out,
                   const std::filesystem::path& err) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, args[0], &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) return -1;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// The last non-empty line of a program's stderr: its error message, usually.
std::string last_line(const std::string& s) {
  std::istringstream in(s);
  std::string line, last;
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  return last.empty() ? "no output" : last;
}

// Flags every llama.cpp peer gets: reader's run settings. -fa, -ngl and --repack match
// reader's context (flash attention, GPU layers and weight repacking as reader runs them,
// where llama.cpp would otherwise offload to any GPU it finds); -b covers the whole prompt
// (llama-speculative-simple refuses a prompt longer than a batch) while -ub 512 splits it
// like reader's prefill.
std::vector<std::string> common_args(const PeerEnv& env, const std::filesystem::path& prompt,
                                     int n_predict) {
  const std::string t = std::to_string(env.threads), c = std::to_string(env.ctx);
  std::vector<std::string> args = {"-m",     env.model.string(),
                                   "-f",     prompt.string(),
                                   "-n",     std::to_string(n_predict),
                                   "--temp", "0",
                                   "-t",     t,
                                   "-tb",    t,
                                   "-c",     c,
                                   "-b",     c,
                                   "-ub",    "512",
                                   "-fa",    env.flash_attn ? "on" : "off"};
  args.push_back(env.repack ? "--repack" : "--no-repack");
  // A CPU-only llama.cpp warns about -ngl; there is nothing to offload to anyway.
  if (llama_supports_gpu_offload())
    args.insert(args.end(), {"-ngl", env.gpu_layers < 0 ? "all" : std::to_string(env.gpu_layers)});
  return args;
}

PeerResult fail(std::string why) {
  PeerResult r;
  r.error = std::move(why);
  return r;
}

PeerResult run_llama_example(const PeerConfig& config, const PeerEnv& env,
                             const std::string& prompt, int max_tokens) {
  // -f drops one trailing newline from the file; the chat template's prompt ends with one
  // ("<|im_start|>assistant\n"), so the file gets an extra newline for -f to drop.
  const auto prompt_file = env.work_dir / "peer-prompt.txt";
  write_text(prompt_file, prompt + "\n");
  const bool lookup = config.program == PeerProgram::kLookup;
  // Both programs decode n_predict + 1 tokens (they stop once the count exceeds -n), and
  // llama-lookup treats -n 0 as unlimited.
  const int n_predict = std::max(max_tokens - 1, lookup ? 1 : 0);
  std::vector<std::string> argv = {
      (env.bin_dir / (lookup ? "llama-lookup" : "llama-speculative-simple")).string()};
  for (auto& a : common_args(env, prompt_file, n_predict)) argv.push_back(std::move(a));
  if (lookup && !env.lookup_cache.empty()) {
    argv.push_back("-lcs");
    argv.push_back(env.lookup_cache.string());
  }
  argv.insert(argv.end(), config.args.begin(), config.args.end());
  const auto out = env.work_dir / "peer-out.txt", err = env.work_dir / "peer-err.txt";
  const int rc = spawn_and_wait(argv, out, err);
  const std::string err_text = slurp(err), out_text = slurp(out);
  if (rc != 0)
    return fail(config.name + " exited with status " + std::to_string(rc) + ": " +
                last_line(err_text));
  const auto counters = parse_peer_counters(err_text);
  if (!counters) return fail(config.name + ": no 'decoded N tokens' line on stderr");
  auto text = extract_generated_text(out_text, prompt);
  if (!text) return fail(config.name + ": the prompt was not echoed on stdout");
  PeerResult r;
  r.ok = true;
  r.tokens = counters->decoded;
  r.decode_s = counters->seconds;
  r.tokens_per_s = counters->seconds > 0 ? counters->decoded / counters->seconds : 0;
  r.drafted = counters->drafted;
  r.accepted = counters->accepted;
  // Every step commits its accepted drafts plus one token of the model's own.
  const int steps = counters->decoded - counters->accepted;
  r.mean_accepted = steps > 0 ? static_cast<double>(counters->decoded) / steps : 0;
  r.text = std::move(*text);
  return r;
}

PeerResult run_python(const PeerConfig& config, const PeerEnv& env, const std::string& prompt,
                      int max_tokens) {
  const auto prompt_file = env.work_dir / "peer-prompt-py.txt";
  write_text(prompt_file, prompt);  // read verbatim by the script
  std::vector<std::string> argv = {
      env.python.string(), env.script.string(),         "--model", env.model.string(),
      "--prompt-file",     prompt_file.string(),        "-n",      std::to_string(max_tokens),
      "--threads",         std::to_string(env.threads), "--ctx",   std::to_string(env.ctx)};
  if (env.flash_attn) argv.push_back("--flash-attn");
  if (env.repack) argv.push_back("--repack");
  argv.insert(argv.end(), {"--gpu-layers", std::to_string(env.gpu_layers)});
  argv.insert(argv.end(), config.args.begin(), config.args.end());
  const auto out = env.work_dir / "peer-out.txt", err = env.work_dir / "peer-err.txt";
  const int rc = spawn_and_wait(argv, out, err);
  if (rc != 0)
    return fail(config.name + " exited with status " + std::to_string(rc) + ": " +
                last_line(slurp(err)));
  const std::string line = last_line(slurp(out));
  const auto j = nlohmann::json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("tokens"))
    return fail(config.name + ": no JSON result on stdout");
  PeerResult r;
  r.ok = true;
  r.tokens = j.value("tokens", 0);
  r.decode_s = j.value("decode_s", 0.0);
  const int decode_tokens = j.value("decode_tokens", 0);
  r.tokens_per_s = r.decode_s > 0 ? decode_tokens / r.decode_s : 0;
  r.drafted = j.value("drafted", 0);
  const int steps = j.value("steps", 0);
  r.accepted = std::max(0, r.tokens - steps);
  r.mean_accepted = steps > 0 ? static_cast<double>(r.tokens) / steps : 0;
  r.text = j.value("text", "");
  return r;
}

PeerConfig spec(std::string name, std::vector<std::string> args, bool baseline = false) {
  return {std::move(name), PeerProgram::kSpeculativeSimple, std::move(args), baseline};
}

// ngram-simple / ngram-map-k / ngram-map-k4v: lookup length n, draft length m.
PeerConfig ngram_nm(const std::string& type, int n, int m) {
  const std::string flag = "--spec-" + type + "-size-";
  return spec("llama:" + type + " n" + std::to_string(n) + " m" + std::to_string(m),
              {"--spec-type", type, flag + "n", std::to_string(n), flag + "m", std::to_string(m)});
}

PeerConfig ngram_mod(int match, int min, int max) {
  return spec("llama:ngram-mod match" + std::to_string(match) + " min" + std::to_string(min) +
                  " max" + std::to_string(max),
              {"--spec-type", "ngram-mod", "--spec-ngram-mod-n-match", std::to_string(match),
               "--spec-ngram-mod-n-min", std::to_string(min), "--spec-ngram-mod-n-max",
               std::to_string(max)});
}

PeerConfig draft_n_max(PeerConfig c, int n) {
  c.name += " nmax" + std::to_string(n);
  c.args.push_back("--spec-draft-n-max");
  c.args.push_back(std::to_string(n));
  return c;
}

PeerConfig python_lookup(int ngram, int pred) {
  return {"py:prompt-lookup ngram" + std::to_string(ngram) + " pred" + std::to_string(pred),
          PeerProgram::kPromptLookupPy,
          {"--max-ngram-size", std::to_string(ngram), "--num-pred-tokens", std::to_string(pred)},
          false};
}

// llama.cpp has no drafter-less mode here (--spec-type none fails to initialize): an
// ngram-simple whose lookup (1024 tokens) is longer than its draft (1) never drafts.
const PeerConfig kLlamaAr = spec("llama:ar",
                                 {"--spec-type", "ngram-simple", "--spec-ngram-simple-size-n",
                                  "1024", "--spec-ngram-simple-size-m", "1"},
                                 true);
const PeerConfig kPythonAr = {"py:ar", PeerProgram::kPromptLookupPy, {"--no-draft"}, true};
const PeerConfig kLookup = {"llama-lookup", PeerProgram::kLookup, {}, false};
const PeerConfig kNgramCache = spec("llama:ngram-cache", {"--spec-type", "ngram-cache"});

}  // namespace

std::optional<PeerCounters> parse_peer_counters(std::string_view err) {
  static const std::regex decoded(R"(decoded\s+(\d+) tokens in\s+([0-9.eE+-]+) seconds)");
  static const std::regex drafted(R"(n_drafted\s*=\s*(\d+))");
  static const std::regex accepted(R"(n_accept\s*=\s*(\d+))");
  const std::string s(err);
  std::smatch m;
  PeerCounters c;
  if (!std::regex_search(s, m, decoded)) return std::nullopt;
  try {
    c.decoded = std::stoi(m[1].str());
    c.seconds = std::stod(m[2].str());
    if (std::regex_search(s, m, drafted)) c.drafted = std::stoi(m[1].str());
    if (std::regex_search(s, m, accepted)) c.accepted = std::stoi(m[1].str());
  } catch (const std::exception&) {  // out of range
    return std::nullopt;
  }
  if (c.accepted > c.drafted || c.accepted > c.decoded || c.seconds < 0) return std::nullopt;
  return c;
}

std::optional<std::string> extract_generated_text(std::string_view out, std::string_view prompt) {
  if (!out.starts_with("\n\n")) return std::nullopt;
  // The prompt right after the blank lines, else after a BOS piece ("<bos>" for Gemma).
  const size_t at = out.substr(2).starts_with(prompt) ? 2 : out.find(prompt, 2);
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view rest = out.substr(at + prompt.size());
  if (!rest.ends_with("\n\n\n\n")) return std::nullopt;  // cut short: the run did not finish
  rest.remove_suffix(4);
  return std::string(rest);
}

PeerEnv default_peer_env() {
  const std::filesystem::path root = READER_SOURCE_DIR;
  PeerEnv env;
  const char* dir = std::getenv("READER_PEERS_DIR");
  env.bin_dir = dir && *dir ? std::filesystem::path(dir) : root / "build" / "peers";
  env.python = root / ".venv" / "bin" / "python";
  env.script = root / "scripts" / "peer_prompt_lookup.py";
  env.flash_attn = flash_attn_by_default();  // as reader's models run unless told otherwise
  env.repack = repack_by_default();
  return env;
}

std::string peer_type(const PeerConfig& config) {
  return config.name.substr(0, config.name.find(' '));
}

bool is_no_draft_baseline(std::string_view method) {
  // Reader's own AR, or a peer configuration marked as its program's plain decoding.
  static const std::vector<PeerConfig> configs = default_peer_configs();
  return method == "ar" || std::ranges::any_of(configs, [&](const PeerConfig& c) {
           return c.baseline && c.name == method;
         });
}

bool peer_text_matches(std::string_view peer, std::string_view reference) {
  return !reference.empty() ? peer.starts_with(reference) : peer.empty();
}

PeerResult run_peer(const PeerConfig& config, const PeerEnv& env, const std::string& prompt,
                    int max_tokens) {
  if (max_tokens < 1) return fail("max_tokens must be at least 1");
  try {
    return config.program == PeerProgram::kPromptLookupPy
               ? run_python(config, env, prompt, max_tokens)
               : run_llama_example(config, env, prompt, max_tokens);
  } catch (const std::exception& e) {
    return fail(config.name + ": " + e.what());
  }
}

std::vector<std::filesystem::path> missing_peer_programs(const std::vector<PeerConfig>& configs,
                                                         const PeerEnv& env) {
  std::vector<std::filesystem::path> need;
  auto want = [&](const std::filesystem::path& p) {
    if (std::find(need.begin(), need.end(), p) == need.end()) need.push_back(p);
  };
  for (const auto& c : configs) {
    switch (c.program) {
      case PeerProgram::kSpeculativeSimple:
        want(env.bin_dir / "llama-speculative-simple");
        break;
      case PeerProgram::kLookup:
        want(env.bin_dir / "llama-lookup");
        want(env.bin_dir / "llama-lookup-create");
        break;
      case PeerProgram::kPromptLookupPy:
        want(env.python);
        want(env.script);
        break;
    }
  }
  std::vector<std::filesystem::path> missing;
  for (const auto& p : need)
    if (::access(p.c_str(), X_OK) != 0 && !(p == env.script && std::filesystem::exists(p)))
      missing.push_back(p);
  return missing;
}

void build_lookup_cache(const PeerEnv& env, const std::filesystem::path& corpus_text) {
  const auto tmp = env.lookup_cache.string() + ".tmp";
  const std::vector<std::string> argv = {(env.bin_dir / "llama-lookup-create").string(),
                                         "-m",
                                         env.model.string(),
                                         "-f",
                                         corpus_text.string(),
                                         "-lcs",
                                         tmp,
                                         "-t",
                                         std::to_string(env.threads),
                                         "-c",
                                         "512"};
  const auto out = env.work_dir / "lookup-create-out.txt";
  const auto err = env.work_dir / "lookup-create-err.txt";
  const int rc = spawn_and_wait(argv, out, err);
  if (rc != 0 || !std::filesystem::exists(tmp))
    throw std::runtime_error("llama-lookup-create failed (status " + std::to_string(rc) +
                             "): " + last_line(slurp(err)));
  std::filesystem::rename(tmp, env.lookup_cache);
}

std::vector<PeerConfig> default_peer_configs() {
  // "best" settings: the best of a small sweep per type on six prompt kinds (issue 8,
  // SmolLM2 Q8_0, 128 tokens); rerun `reader bench --peers-sweep` on a quiet machine to
  // re-choose them for another model or machine.
  return {kLlamaAr,
          spec("llama:ngram-simple", {"--spec-type", "ngram-simple"}),
          ngram_nm("ngram-simple", 3, 8),
          spec("llama:ngram-map-k", {"--spec-type", "ngram-map-k"}),
          ngram_nm("ngram-map-k", 3, 8),
          spec("llama:ngram-map-k4v", {"--spec-type", "ngram-map-k4v"}),
          ngram_nm("ngram-map-k4v", 3, 8),
          spec("llama:ngram-mod", {"--spec-type", "ngram-mod"}),
          ngram_mod(4, 2, 8),
          kNgramCache,
          kLookup,
          kPythonAr,
          python_lookup(2, 10)};
}

std::vector<PeerConfig> sweep_peer_configs() {
  std::vector<PeerConfig> grid = {kLlamaAr, kPythonAr};
  for (const std::string type : {"ngram-simple", "ngram-map-k", "ngram-map-k4v"})
    for (int n : {2, 3, 4, 6})
      for (int m : {4, 8, 16}) grid.push_back(ngram_nm(type, n, m));
  for (int match : {3, 4, 8, 24})
    for (auto [min, max] : {std::pair{1, 4}, {2, 8}, {4, 16}, {48, 64}})
      grid.push_back(ngram_mod(match, min, max));
  for (int n : {3, 8, 16}) {
    grid.push_back(draft_n_max(kNgramCache, n));
    grid.push_back(draft_n_max(kLookup, n));
  }
  for (int ngram : {1, 2, 3})
    for (int pred : {4, 10}) grid.push_back(python_lookup(ngram, pred));
  return grid;
}

}  // namespace reader
