#include "bench_peers.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <thread>

#include "bench_report.h"
#include "corpus_reader.h"
#include "json_text.h"
#include "util/hash.h"

namespace reader::cli {
namespace {

using nlohmann::json;

// `files` (the default datastore's corpus) as one text file, documents separated by blank
// lines: the input of llama-lookup-create, llama.cpp's counterpart of our long-term datastore.
void write_corpus_text(const std::filesystem::path& path, const std::vector<std::string>& files) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw UsageError("cannot write " + path.string());
  for (const auto& file : files) {
    if (!std::filesystem::is_regular_file(file))
      throw UsageError("corpus file not found: " + file + " (set READER_DATA_DIR)");
    read_corpus_file(file, {}, [&](const std::string& doc) { out << doc << "\n\n"; });
  }
  if (!out.flush()) throw UsageError("cannot write " + path.string());
}

bool named(const PeerConfig& c, const std::vector<std::string>& only) {
  return std::find(only.begin(), only.end(), c.name) != only.end() ||
         std::find(only.begin(), only.end(), peer_type(c)) != only.end();
}

}  // namespace

void PeerBenchFlags::add_to(CLI::App& cmd) {
  auto* p = cmd.add_flag("--peers", peers,
                         "also run llama.cpp's own speculative decoding (scripts/build_peers.sh)");
  auto* s = cmd.add_flag("--peers-sweep", sweep,
                         "sweep the peers' size flags on calibration prompts (AR + peers only)");
  p->excludes(s);
  cmd.add_option("--peer-configs", only,
                 "only these peer configurations or types (e.g. llama:ar,llama:ngram-mod)")
      ->delimiter(',');
  cmd.add_option("--calibration-offset", calibration_offset,
                 "--peers-sweep uses each set's prompts from this index on")
      ->capture_default_str()
      ->check(CLI::Range(0, 100000));
}

PeerBench::PeerBench(const PeerBenchFlags& flags, const ModelFlags& model)
    : env_(default_peer_env()) {
  for (const auto& c : flags.sweep ? sweep_peer_configs() : default_peer_configs())
    // llama.cpp's own AR always runs: the "speedup over llama:ar" column needs it.
    if (flags.only.empty() || named(c, flags.only) || c.name == "llama:ar") configs_.push_back(c);
  for (const auto& name : flags.only)
    if (std::none_of(configs_.begin(), configs_.end(),
                     [&](const PeerConfig& c) { return named(c, {name}); }))
      throw UsageError("--peer-configs: '" + name + "' matches no peer configuration" +
                       (flags.sweep ? " of the sweep" : ""));
  const auto missing = missing_peer_programs(configs_, env_);
  if (!missing.empty())
    throw UsageError("peer program " + missing.front().string() +
                     " not found: run scripts/build_peers.sh (or scripts/setup.sh)");
  env_.model = model.model_path;
  env_.ctx = model.ctx;
  env_.flash_attn = model.options().flash_attn;
  env_.repack = model.options().extra_buffers;
  env_.gpu_layers = model.gpu_layers;
  env_.threads =
      model.threads > 0 ? model.threads : std::max(1u, std::thread::hardware_concurrency());
  if (!std::filesystem::is_regular_file(env_.model))
    throw UsageError("model file not found: " + env_.model.string());
  env_.work_dir =
      std::filesystem::temp_directory_path() / ("reader-peers-" + std::to_string(::getpid()));
  std::filesystem::create_directories(env_.work_dir);

  const bool lookup = std::any_of(configs_.begin(), configs_.end(), [](const PeerConfig& c) {
    return c.program == PeerProgram::kLookup;
  });
  if (lookup) {  // once per model and corpus: the cache holds token ids of its tokenizer
    const auto files = default_corpus_files(env_.model);
    Fnv1a64 key;  // which files, and their sizes: the model's own answers may join later
    for (const auto& file : files) {
      std::error_code ec;
      key.add(file.data(), file.size());
      key.add_value(static_cast<std::uint64_t>(std::filesystem::file_size(file, ec)));
    }
    const std::string name = fmt::format("{}-{:016x}", env_.model.stem().string(), key.value());
    env_.lookup_cache = env_.bin_dir / ("lookup-static-" + name + ".bin");
    if (!std::filesystem::exists(env_.lookup_cache)) {
      const auto corpus = env_.work_dir / "datastore-corpus.txt";
      std::printf("peers: writing the default datastore's corpus to %s\n", corpus.c_str());
      write_corpus_text(corpus, files);  // in this run's own folder, removed at exit
      std::printf("peers: building llama-lookup's static n-gram cache %s (once)\n",
                  env_.lookup_cache.c_str());
      std::fflush(stdout);
      try {
        build_lookup_cache(env_, corpus);
      } catch (const std::exception& e) {
        throw UsageError(e.what());
      }
    }
  }
}

PeerBench::~PeerBench() {
  std::error_code ec;
  std::filesystem::remove_all(env_.work_dir, ec);
}

json PeerBench::run(size_t i, const std::string& prompt_text, int max_tokens) {
  const PeerResult r = run_peer(configs_[i], env_, prompt_text, max_tokens);
  if (!r.ok) {
    std::fprintf(stderr, "\nreader: warning: %s\n", r.error.c_str());
    return {{"ok", false},
            {"error", r.error},
            {"text", ""},
            {"tokens_per_s", 0.0},
            {"mean_accepted", 0.0}};
  }
  return {{"ok", true},
          {"generated_tokens", r.tokens},
          {"decode_ms", 1000.0 * r.decode_s},
          {"tokens_per_s", r.tokens_per_s},
          {"mean_accepted", r.mean_accepted},
          {"drafted_tokens", r.drafted},
          {"accepted_tokens", r.accepted},
          {"text", r.text}};
}

json PeerBench::describe() const {
  json configs = json::array();
  for (const auto& c : configs_) configs.push_back({{"name", c.name}, {"args", c.args}});
  return {{"programs", env_.bin_dir.string()},
          {"threads", env_.threads},
          {"ctx", env_.ctx},
          {"lookup_cache", env_.lookup_cache.string()},
          {"configs", configs}};
}

double median_tokens_per_s(const json& runs, const std::string& set, const std::string& method) {
  std::vector<double> tps;
  for (const auto& r : runs)
    if (r["set"] == set && r["method"] == method && r.value("ok", true))
      tps.push_back(r["tokens_per_s"]);
  return tps.empty() ? 0.0 : median(tps);
}

void write_sweep_best(const json& summary, const std::filesystem::path& out) {
  // type -> config -> speedups over llama.cpp's AR, one per set
  std::map<std::string, std::map<std::string, std::vector<double>>> by_type;
  for (const auto& row : summary) {
    const std::string name = row["method"];
    if (!row.contains("speedup_vs_llama_ar") || is_no_draft_baseline(name)) continue;
    by_type[name.substr(0, name.find(' '))][name].push_back(row["speedup_vs_llama_ar"]);
  }
  json best = json::object();
  std::string md =
      "| drafter | best configuration | geometric mean speedup over llama:ar |\n|---|---|---|\n";
  for (const auto& [type, configs] : by_type) {
    std::string best_name;
    double best_gm = -1;
    for (const auto& [name, speedups] : configs) {
      double log_sum = 0;
      for (double s : speedups) log_sum += std::log(std::max(s, 1e-9));
      const double gm = std::exp(log_sum / static_cast<double>(speedups.size()));
      if (gm > best_gm) best_gm = gm, best_name = name;
    }
    best[type] = {{"config", best_name}, {"geomean_speedup_vs_llama_ar", best_gm}};
    md += fmt::format("| {} | {} | {:.2f}x |\n", type, best_name, best_gm);
  }
  std::ofstream(out / "peers_best.json") << dump_json(best, 2) << "\n";
  std::ofstream(out / "peers_best.md") << md;
  std::printf("%s\nwrote %s/peers_best.{json,md}\n", md.c_str(), out.c_str());
}

}  // namespace reader::cli
