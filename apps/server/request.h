// OpenAI-compatible request parsing for `reader serve`: the body of a POST to
// /v1/chat/completions or /v1/completions becomes a CompletionRequest with every field
// checked and defaulted, or an ApiError the server sends back as OpenAI-style JSON with an
// HTTP status. Pure logic (no model, no sockets), so it is unit tested and fuzzed alone.
//
// Accepted: model, messages (chat) / prompt (completions), max_tokens (and, for chat,
// max_completion_tokens), temperature, top_p, n (must be 1), seed, stop, stream,
// stream_options.include_usage, prediction. A null value counts as absent.
// Accepted only at their neutral value (false, 0, 1, empty, "none"/"auto" or {"type":
// "text"}), since ignoring any other would answer something else than was asked: logprobs,
// top_logprobs, tools, tool_choice, functions, function_call, response_format, the
// penalties, logit_bias, echo, best_of, suffix (their rules: request.cpp). Ignored (accepted
// whatever their value, with no effect): kIgnoredFields, and any other unknown field.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "reader/model.h"  // ChatMessage only (header use, nothing to link)

namespace reader::server {

// An error to send back as an OpenAI-style JSON error with an HTTP status.
class ApiError : public std::runtime_error {
 public:
  // message: one line for the client; param: the offending field ("" when none).
  ApiError(int status, std::string type, const std::string& message, std::string param = {});
  int status() const { return status_; }
  const std::string& type() const { return type_; }
  const std::string& param() const { return param_; }

 private:
  int status_;         // HTTP status, e.g. 400
  std::string type_;   // OpenAI error type, e.g. "invalid_request_error"
  std::string param_;  // offending field, e.g. "messages[1].content"; "" when none
};

// {"error": {"message": ..., "type": ..., "param": ... or null, "code": null}}
nlohmann::json error_json(const ApiError& e);

// Which endpoint a body was posted to.
enum class Endpoint {
  kChat,        // /v1/chat/completions: "messages"
  kCompletion,  // /v1/completions: "prompt"
};

// What the server accepts; the request is checked against it.
struct RequestLimits {
  int max_tokens_limit = 4096;   // largest max_tokens accepted
  int default_max_tokens = 256;  // when the request gives none (capped at max_tokens_limit)
  size_t max_stop = 4;           // OpenAI allows up to 4 stop strings
};

// OpenAI fields parse_request accepts and ignores (no effect on the output): metadata about
// the request and settings for models that do not apply here.
inline constexpr std::array<std::string_view, 7> kIgnoredFields = {
    "parallel_tool_calls", "user",       "metadata", "store", "service_tier",
    "reasoning_effort",    "modalities",
};

// One parsed request, every field resolved (defaults applied).
struct CompletionRequest {
  Endpoint endpoint = Endpoint::kChat;  // where it was posted
  std::string model;                    // as sent ("" when absent)
  std::vector<ChatMessage> messages;    // chat: the conversation, oldest first
  std::string prompt;                   // completions: raw prompt text
  int max_tokens = 256;                 // resolved (max_completion_tokens also accepted for chat)
  float temperature = 1.0f;             // OpenAI default 1; 0 means greedy
  float top_p = 1.0f;                   // nucleus sampling mass in (0, 1]
  std::optional<std::uint64_t> seed;    // absent: the server picks one
  std::vector<std::string> stop;        // string or array of strings
  bool stream = false;                  // send server-sent events
  bool include_usage = false;           // stream_options.include_usage (only when streaming)
  std::string prediction;       // prediction.content (string, or array of {type:"text",text})
  bool has_prediction = false;  // whether a prediction was given (it may be "")
};

// Parses and checks a request body. Throws ApiError(400, "invalid_request_error", ...) with a
// one-line message naming the field (also in param) for: a body that is not JSON or not an
// object, or nests deeper than 64 levels; wrong types; messages missing/empty/not an array; a
// message without string role or content (content may be an array of {"type":"text","text":..}
// parts, concatenated; null content is fine for assistant messages); a role other than
// system, developer (read as system), user, assistant; prompt missing or not a string (an
// array of one string is fine; token ids or several prompts are unsupported); max_tokens not
// an integer, < 1 or over the limit; temperature outside [0, 2]; top_p outside (0, 1]; n other
// than 1; seed not an integer (negative seeds wrap to uint64); more than max_stop stop strings
// or an empty one; stream not a boolean; stream_options or prediction of the wrong shape.
CompletionRequest parse_request(std::string_view body, Endpoint endpoint,
                                const RequestLimits& limits);

}  // namespace reader::server
