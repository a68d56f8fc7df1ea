// reader bench --batch: total throughput of batched READER against batched AR.
//
// For each batch size B the engine runs 2B requests from a mix of the prompt sets with B
// sequences at once (so finished ones are replaced, as in a server), once per method,
// methods interleaved and repeated; it reports generated tokens per second of wall time,
// prefill included, and whether every output equals AR's.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "cli_common.h"
#include "prompt_sets.h"

namespace reader::cli {

struct BatchBenchParams {
  std::vector<int> sizes;                                             // batch sizes B
  std::vector<std::string> methods;                                   // AR first
  std::vector<std::pair<std::string, std::vector<PromptItem>>> sets;  // prompt mix
  int max_tokens = 128;
  SamplingParams sampling;
  int repeats = 3;
  std::string out;
};

void run_batch_bench(const BatchBenchParams& params, const ModelFlags& model_flags,
                     const MethodInputs& method_inputs);

}  // namespace reader::cli
