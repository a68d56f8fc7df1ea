// Generation: options, results and statistics shared by every decoding method, and the
// autoregressive baseline that every speculative method must reproduce exactly.
#pragma once

#include <array>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "reader/model.h"
#include "reader/sampling.h"
#include "reader/tokens.h"

namespace reader {

struct GenerationOptions {
  int max_tokens = 128;           // generated tokens at most (EOS not counted)
  SamplingParams sampling;        // greedy when temperature is 0
  std::vector<std::string> stop;  // stop strings: output ends before the first one
  // Testing hook: sees the logits row the policy used for each output position.
  std::function<void(int position, const float* logits)> on_logits;
};

enum class StopReason { kMaxTokens, kEndOfGeneration, kStopString, kContextFull, kCancelled };
std::string_view to_string(StopReason reason);

// Where accepted draft tokens came from (the root/bonus token is the model's own).
enum class DraftSource : std::uint8_t {
  kModel = 0,
  kSpeculator,
  kWidening,
  kDeepening,
  kSuffix,  // SuffixDecoding (method suffix): prompt / earlier-output suffix trees
  kCopy,    // READER: the text's latest repeat, followed where it occurred (context_copy.h)
  kCount
};
std::string_view to_string(DraftSource source);

struct GenerationStats {
  int prompt_tokens = 0;                  // after tokenization (and chat template)
  int generated_tokens = 0;               // tokens in the output
  double prefill_ms = 0;                  // prompt evaluation
  double decode_ms = 0;                   // everything after prefill
  int steps = 0;                          // forward passes after prefill
  double draft_ms = 0;                    // building draft trees (speculative only)
  double verify_ms = 0;                   // llama_decode of the trees
  double bookkeeping_ms = 0;              // acceptance, KV commit, trie updates
  int drafted_tokens = 0;                 // draft-tree nodes sent to verification
  int kv_compactions = 0;                 // whole trees' holes closed (Model::kv_compact)
  std::vector<int> accepted_histogram;    // [k] = steps that committed k tokens (incl. bonus)
  std::vector<int> verified_histogram;    // [n] = steps that verified n tokens (incl. the root)
  std::vector<double> verify_ms_by_size;  // [n] = verify_ms of those steps (whole pass if batched)
  std::array<int, static_cast<int>(DraftSource::kCount)> accepted_by_source{};  // tokens
  std::array<int, static_cast<int>(DraftSource::kCount)> drafted_by_source{};   // nodes verified
  double tokens_per_second() const {
    return decode_ms > 0 ? 1000.0 * generated_tokens / decode_ms : 0.0;
  }
  // Tokens per forward pass, counting the prompt's pass that yields the first token, as
  // llama.cpp's programs count (so AR reads 1.00, where it read up to 1.14 on short answers).
  double mean_accepted() const {
    return generated_tokens > 0 ? static_cast<double>(generated_tokens) / (steps + 1) : 0.0;
  }
};

struct GenerationResult {
  Tokens tokens;     // generated token ids (EOS excluded; a stop string's last token kept)
  std::string text;  // their text, cut before a stop string
  StopReason stop_reason = StopReason::kMaxTokens;
  GenerationStats stats;
};

// Receives text as it is produced: always whole UTF-8 characters, never a piece of a
// pending stop string.
using TextCallback = std::function<void(std::string_view)>;

// Plain greedy / sampled decoding, one llama_decode per token: the reference output.
GenerationResult generate_autoregressive(Model& model, TokenSpan prompt,
                                         const GenerationOptions& options,
                                         const TextCallback& on_text = {});

// Throws ModelError when the prompt cannot be generated from (empty, too long, bad ids).
void check_prompt(const Model& model, TokenSpan prompt);

}  // namespace reader
