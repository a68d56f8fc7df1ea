// Benchmark peers: llama.cpp's own speculative decoding (llama-speculative-simple's n-gram
// drafters, llama-lookup with a static n-gram cache) and llama-cpp-python's
// LlamaPromptLookupDecoding, run as subprocesses on the same model, prompt and threads as
// reader, so `reader bench --peers` can put them in the same tables. The binaries come
// from scripts/build_peers.sh (build/peers/), compiled from our patched llama.cpp sources.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace reader {

enum class PeerProgram {
  kSpeculativeSimple,  // build/peers/llama-speculative-simple --spec-type ...
  kLookup,             // build/peers/llama-lookup with a static n-gram cache
  kPromptLookupPy,     // scripts/peer_prompt_lookup.py (llama-cpp-python)
};

// One peer configuration: a program and the flags that choose its drafter and sizes.
struct PeerConfig {
  std::string name;  // row name in the tables, e.g. "llama:ngram-simple"
  PeerProgram program = PeerProgram::kSpeculativeSimple;
  std::vector<std::string> args;  // drafter flags, e.g. {"--spec-type", "ngram-simple"}
  bool baseline = false;          // drafts nothing: its program's own plain decoding
};

// What every peer run shares: where the programs are, and the run settings of reader's.
struct PeerEnv {
  std::filesystem::path bin_dir;       // llama-speculative-simple, llama-lookup(-create)
  std::filesystem::path python;        // the venv's python (llama-cpp-python, numpy)
  std::filesystem::path script;        // scripts/peer_prompt_lookup.py
  std::filesystem::path model;         // the same GGUF reader runs
  std::filesystem::path lookup_cache;  // static n-gram cache for llama-lookup ("" = none)
  std::filesystem::path work_dir;      // temporary prompt and output files
  int threads = 1;                     // -t and -tb (resolved, never 0)
  int ctx = 4096;                      // -c
  bool flash_attn = false;             // -fa on|off: reader's setting (ModelOptions::flash_attn)
  bool repack = false;                 // --repack | --no-repack: reader's (extra_buffers)
  int gpu_layers = 0;                  // -ngl: reader's setting (ModelOptions::gpu_layers)
};

// What one run produced, in reader's terms.
struct PeerResult {
  bool ok = false;           // false: see error; the other fields are unset
  std::string error;         // one line: why the run failed
  int tokens = 0;            // tokens the peer reports decoding
  double decode_s = 0;       // its decode time (prompt evaluation excluded)
  double tokens_per_s = 0;   // its decode rate
  int drafted = 0;           // drafted tokens sent to verification
  int accepted = 0;          // drafted tokens accepted
  double mean_accepted = 0;  // tokens committed per forward pass (1 for plain decoding)
  std::string text;          // the generated text (after the prompt)
};

// Runs `config` on `prompt` (chat template already applied) for `max_tokens` tokens, greedy.
// Most llama.cpp drafters (ngram-map-k, ngram-cache, llama-lookup) do not cap their last
// draft at the token budget and may decode a few tokens more, and an end-of-generation token
// counts as decoded: compare texts with peer_text_matches.
PeerResult run_peer(const PeerConfig& config, const PeerEnv& env, const std::string& prompt,
                    int max_tokens);

// Paths of this checkout: build/peers ($READER_PEERS_DIR overrides), .venv/bin/python and
// scripts/peer_prompt_lookup.py. The run settings are left for the caller.
PeerEnv default_peer_env();

// Whether a peer's text agrees with the reference (reader's AR output): it must start with
// it, since llama-lookup may decode past max_tokens and prints the end-of-generation token.
bool peer_text_matches(std::string_view peer, std::string_view reference);

// The drafter a config belongs to: its name up to the first space ("llama:ngram-mod").
std::string peer_type(const PeerConfig& config);

// Whether a bench method is a no-draft baseline (reader's "ar", or a peer configuration with
// `baseline` set: llama.cpp's or llama-cpp-python's AR), which has no speedup of its own to
// rank or share of a bound to report.
bool is_no_draft_baseline(std::string_view method);

// The programs a config needs, as paths; empty when all exist.
std::vector<std::filesystem::path> missing_peer_programs(const std::vector<PeerConfig>& configs,
                                                         const PeerEnv& env);

// Builds env.lookup_cache from a corpus text file with llama-lookup-create (a model run).
// Throws std::runtime_error with one line on failure.
void build_lookup_cache(const PeerEnv& env, const std::filesystem::path& corpus_text);

// The reported configurations: per drafter its defaults and its best setting, plus each
// program's plain decoding (llama.cpp's own AR first).
std::vector<PeerConfig> default_peer_configs();
// The grid `reader bench --peers-sweep` tries per drafter (size flags).
std::vector<PeerConfig> sweep_peer_configs();

// --- parsing, exposed for tests ---
// Counters llama-speculative-simple and llama-lookup print on stderr.
struct PeerCounters {
  int decoded = 0;     // "decoded N tokens in S seconds"
  double seconds = 0;  // S
  int drafted = 0;     // "n_drafted = D"
  int accepted = 0;    // "n_accept = A"
};
std::optional<PeerCounters> parse_peer_counters(std::string_view err);
// The generated text from a llama.cpp example's stdout: "\n\n" + the prompt's pieces
// (a BOS piece may come first) + the output + four trailing newlines.
std::optional<std::string> extract_generated_text(std::string_view out, std::string_view prompt);

}  // namespace reader
