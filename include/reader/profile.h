// Profile: what `reader tune` measured for one model on one machine, so that the tree
// policy drafts only what pays HERE. Two parts:
//   - cost: c(n, L), the time of verifying n tokens over one autoregressive step at L
//     cached tokens, for this model, llama.cpp build, CPU and thread count;
//   - acceptance: calibration counts per kind of draft node (tree_policy.h), from which
//     the drafter's priors come; counted once greedy and once sampling, because under
//     sampling a drafted token is accepted only as often as the model samples it.
// Stored as JSON beside the model (models/<model stem>.profile.json). A cost measured on
// another machine is never used: without a matching one the cost is measured once and
// cached under ~/.cache/reader/cost/ (cost_model_for).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "reader/drafter.h"
#include "reader/tree_policy.h"

namespace reader {

class Datastore;
class Model;

// A profile that cannot be used (unreadable, corrupt, for another model); one line.
class ProfileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Profile {
  std::string model;            // Model::description() of the tuned model
  std::uint64_t tokenizer = 0;  // its tokenizer fingerprint: a foreign model is refused
  std::string machine;          // machine_key() where the cost was measured, with the attention
                                // settings it ran (flash attention, KV type)
  int threads = 0;              // threads the cost was measured with
  CostModel cost = fallback_cost_model();  // c(n, L) on that machine
  std::string cost_method;                 // how c(n) was estimated: kCostMethod, else stale
  std::optional<CostCurve> cost_in_place;  // c(n) generation paid (tune), folded into `cost`;
                                           // absent: the probe's alone
  AcceptanceCounts acceptance;             // calibration counts per node kind, greedy
  AcceptanceCounts acceptance_sampled;     // the same at sampled_temperature (empty: not run)
  double sampled_temperature = 0;          // temperature acceptance_sampled was counted at
  std::string calibration;                 // which prompts were calibrated on (for the record)
  std::string datastore;  // the long-term datastore calibrated with (datastore_identity; ""
                          // before session 28): counts of its nodes hold for it alone
  std::string drafter;    // kDrafter when calibrated ("" before session 29): what the counts
                          // of its nodes were counted for
  std::optional<TreeShape> shape;  // tree shape chosen from the calibration (Theorem 1)
  // Second opinions on READER's estimates (acceptance_refiner.h), fitted to READER's candidates
  // on the refiner's calibration prompts with this profile's priors and shape; empty: none.
  AcceptanceRefiner refiner;
  AcceptanceRefiner refiner_sampled;  // the same under sampling at sampled_temperature
  std::string refiner_calibration;    // which prompts the refiners were fitted on (the record)
  // The file held a refiner of another build's features or model, left out (refiner and
  // refiner_sampled empty): reader tune --if-stale fits new ones.
  bool refiner_outdated = false;
};

// How measure_cost_model estimates c(n). A profile or cached curve made another way (empty:
// before this was recorded) is measured again, as one from another machine would be.
inline constexpr const char* kCostMethod = "paired-median-steady-base";

// What the acceptance counts were counted for: changes when a drafting source drafts other
// nodes under the same kinds (session 29: recycled successors keyed by kReaderRecyclingContext
// = 3 tokens; session 30: seconded speculator guesses; session 31: retrieval matches up to 12
// tokens), so that `reader tune --if-stale` counts again.
inline constexpr const char* kDrafter = "recycling-context-3/agreement/suffix-12";

// Identifies what a cost curve depends on besides the model: CPU model and features,
// the llama.cpp build (setup's wheel key) and its compiled-in features.
std::string machine_key();
// models/<model stem>.profile.json
std::filesystem::path default_profile_path(const std::filesystem::path& model_path);

// Throws ProfileError naming the file and the problem.
Profile load_profile(const std::filesystem::path& path);
// Written atomically (temporary file, then rename).
void save_profile(const Profile& profile, const std::filesystem::path& path);
std::string profile_to_json(const Profile& profile);
// Throws ProfileError unless `profile` was tuned for `model`'s vocabulary.
void check_profile_matches(const Profile& profile, const Model& model,
                           const std::filesystem::path& path);

// What a profile records of the datastore it was calibrated with: "none", or the file's name
// with its token and document counts (a rebuilt datastore almost always changes them).
std::string datastore_identity(const Datastore* datastore);

// Threads `model` decodes with (its option, or every hardware thread when 0): part of what
// a cost curve was measured under.
int effective_threads(const Model& model);

// How the cost is probed: chains of each size decoded on top of each context length.
struct CostProbe {
  std::vector<int> contexts = {256, 1024, 2048};  // cached tokens (skipped if too long)
  // Tokens per verification: every size a draft commonly has, since llama.cpp's CPU kernels
  // make some sizes cost as much as the next one up (here an odd n costs what n + 1 does),
  // which a curve interpolated between sparse sizes would miss.
  std::vector<int> sizes = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16, 24, 32};
  int repeats = 3;  // timed rounds (after one warm-up) per context and pass
  // Sweeps over all the contexts; each point is the median, over the rounds of every pass,
  // of its time over the same round's one-token time, so one noisy spell on a shared machine
  // cannot set a whole row (README, "Calibration").
  int passes = 2;
};
// Raw timings behind a measured cost model, for reports (`reader bench --cost-curve`).
struct CostTimings {
  std::vector<int> contexts;                   // the contexts measured (those that fit)
  std::vector<std::vector<double>> median_ms;  // [context][size index]: median decode time
};
// Measures c(n, L) on `model` (clears its KV cache). `progress` gets 0..1; `timings`, when
// given, receives the median milliseconds per context and size.
CostModel measure_cost_model(Model& model, const CostProbe& probe,
                             const std::function<void(double)>& progress = {},
                             CostTimings* timings = nullptr);

// A draft model's one-token decode over `target`'s, both at a short cached context (median of
// interleaved rounds; clears both KV caches). A draft model drafts one token per decode, so
// this is what each drafted token costs before it is verified.
double relative_decode_cost(Model& draft, Model& target, int rounds = 7);

// How the batch table (CostModel::pass) is probed: B sequences, one KV stream each, each
// decoding k tokens on top of `context` cached ones, timed against one sequence's one-token
// decode in the same round.
struct BatchProbe {
  std::vector<int> sequences = {2, 4, 8, 16};  // B (those the model has streams for)
  std::vector<int> each = {1, 2, 3, 4, 6, 8};  // k, tokens per sequence
  int max_tokens = 64;  // B x k beyond this is not timed: drafts are trimmed long before
  int context = 256;    // cached tokens per sequence
  int repeats = 7;      // timed rounds after one warm-up
};
// Measures the batch table on `model`, which must keep one stream per sequence (kv_unified
// false; else throws std::invalid_argument), into `cost` (set_batch). Clears its KV cache.
void measure_batch_cost(Model& model, const BatchProbe& probe, CostModel& cost,
                        const std::function<void(double)>& progress = {});

// What a measured cost holds for: `model`, this machine, these threads, the current method.
// stamp_cost_for records it on a profile about to receive a cost measured now; a profile
// whose cost is not current is measured again (cost_model_for) or re-tuned (tune --if-stale).
void stamp_cost_for(Profile& profile, const Model& model);
bool cost_is_current(const Profile& profile, const Model& model);

// The cost the drafter should use: the profile's if it was measured on this machine with
// these threads, else one cached for this machine, else measured now (a few seconds, a
// note on stderr) and cached.
CostModel cost_model_for(Model& model, const Profile* profile);

}  // namespace reader
