// reader bench --peers | --peers-sweep: llama.cpp's own speculative decoding and
// llama-cpp-python's prompt lookup (apps/common/peers.h) run on the same prompts as reader's
// methods, interleaved with them, in the same tables. cmd_bench.cpp owns the loop; this file
// owns the flags, the peer runs and the sweep's choice of each drafter's best setting.
#pragma once

#include <CLI/CLI.hpp>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_common.h"
#include "peers.h"
#include "prompt_sets.h"

namespace reader::cli {

struct PeerBenchFlags {
  bool peers = false;             // --peers: the reported configurations
  bool sweep = false;             // --peers-sweep: the size grid, on calibration prompts
  std::vector<std::string> only;  // --peer-configs: run only these (names or drafter types)
  int calibration_offset = 20;    // sweep prompts are items [offset, offset + --prompts)
  void add_to(CLI::App& cmd);
  bool enabled() const { return peers || sweep; }
};

// The peer configurations of one bench run, ready to run (programs checked, lookup cache
// built). Throws UsageError naming what is missing.
class PeerBench {
 public:
  PeerBench(const PeerBenchFlags& flags, const ModelFlags& model);
  ~PeerBench();
  PeerBench(const PeerBench&) = delete;
  PeerBench& operator=(const PeerBench&) = delete;

  size_t size() const { return configs_.size(); }
  const std::string& name(size_t i) const { return configs_[i].name; }
  // One greedy run of configuration i as a bench row: tokens_per_s, mean_accepted,
  // drafted_tokens, accepted_tokens, generated_tokens, decode_ms, text, ok (error if not).
  nlohmann::json run(size_t i, const std::string& prompt_text, int max_tokens);
  // The configurations (names and flags) and shared settings, for bench.json.
  nlohmann::json describe() const;

 private:
  std::vector<PeerConfig> configs_;
  PeerEnv env_;
};

// Median tokens/s of `method` on `set` among the successful runs (0 if none).
double median_tokens_per_s(const nlohmann::json& runs, const std::string& set,
                           const std::string& method);

// After a sweep: per drafter type, the configuration with the best geometric mean over the
// sets of its speedup over llama.cpp's own AR; written to <out>/peers_best.{json,md}.
void write_sweep_best(const nlohmann::json& summary, const std::filesystem::path& out);

}  // namespace reader::cli
