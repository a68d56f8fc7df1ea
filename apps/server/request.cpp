// parse_request: OpenAI request bodies -> CompletionRequest, or a one-line ApiError.
#include "request.h"

#include <fmt/format.h>

#include <limits>
#include <utility>

#include "json_text.h"

namespace reader::server {
namespace {

using nlohmann::json;

constexpr int kMaxDepth = 64;            // deepest nesting of arrays/objects accepted
constexpr std::size_t kQuoteBytes = 40;  // longest string value quoted back in a message
constexpr const char* kInvalid = "invalid_request_error";

[[noreturn]] void bad(const std::string& param, const std::string& message) {
  throw ApiError(400, kInvalid, message, param);
}

// The first `max` bytes of valid UTF-8 text, cut at a character boundary, "..." if cut.
std::string utf8_prefix(const std::string& s, std::size_t max) {
  if (s.size() <= max) return s;
  std::size_t end = max;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  return s.substr(0, end) + "...";
}

// A value as quoted back in an error message: one line, short, never recursive (a deeply
// nested array is "an array", not its dump).
std::string describe(const json& v) {
  switch (v.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::boolean:
      return v.get<bool>() ? "true" : "false";
    case json::value_t::string:
      return dump_json(json(utf8_prefix(v.get_ref<const std::string&>(), kQuoteBytes)));
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float:
      return v.dump();
    case json::value_t::array:
      return v.empty() ? "an empty array" : "an array";
    case json::value_t::object:
      return v.empty() ? "an empty object" : "an object";
    default:
      return "an unsupported value";
  }
}

// body[key], or null when the key is absent or its value is null (both mean "not given").
const json* given(const json& body, const char* key) {
  const auto it = body.find(key);
  if (it == body.end() || it->is_null()) return nullptr;
  return &*it;
}

// An integral JSON number as int64 (unsigned values past INT64_MAX saturate); nullopt for
// anything else, floats with an integral value included.
std::optional<std::int64_t> as_int(const json& v) {
  if (v.is_number_unsigned()) {
    const std::uint64_t u = v.get<std::uint64_t>();
    constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    return static_cast<std::int64_t>(u > kMax ? kMax : u);
  }
  if (v.is_number_integer()) return v.get<std::int64_t>();
  return std::nullopt;
}

json parse_body(std::string_view body) {
  if (body.find_first_not_of(" \t\r\n") == std::string_view::npos)
    bad("", "request body is empty; expected a JSON object");
  // The callback sees every container as it opens, with the depth of its parent.
  const json::parser_callback_t depth_guard = [](int depth, json::parse_event_t event, json&) {
    if ((event == json::parse_event_t::object_start || event == json::parse_event_t::array_start) &&
        depth >= kMaxDepth)
      bad("", fmt::format("request body nests deeper than {} levels", kMaxDepth));
    return true;
  };
  try {
    json j = json::parse(body.begin(), body.end(), depth_guard);
    if (!j.is_object())
      bad("", fmt::format("request body must be a JSON object, got {}", describe(j)));
    return j;
  } catch (const json::parse_error& e) {
    // e.what() quotes raw input bytes (maybe not UTF-8): report the position only.
    bad("", fmt::format("request body is not valid JSON (syntax error at byte {})", e.byte));
  } catch (const json::exception&) {  // out_of_range: a number too large for a double
    bad("", "request body is not valid JSON (a number out of range)");
  }
}

// A message or prediction "content": a string, or an array of {"type": "text", "text": ...}
// parts, concatenated.
std::string text_content(const json& v, const std::string& param) {
  if (v.is_string()) return v.get<std::string>();
  if (!v.is_array())
    bad(param,
        fmt::format("'{}' must be a string or an array of text parts, got {}", param, describe(v)));
  std::string text;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const json& part = v[i];
    const std::string where = fmt::format("{}[{}]", param, i);
    if (!part.is_object())
      bad(where, fmt::format("'{}' must be an object {{\"type\": \"text\", \"text\": ...}}, got {}",
                             where, describe(part)));
    const json* type = given(part, "type");
    if (type == nullptr || !type->is_string() || type->get_ref<const std::string&>() != "text")
      bad(where + ".type",
          fmt::format("'{}.type' must be \"text\" (images, audio and files are not supported), "
                      "got {}",
                      where, type == nullptr ? "nothing" : describe(*type)));
    const json* t = given(part, "text");
    if (t == nullptr || !t->is_string())
      bad(where + ".text", fmt::format("'{}.text' must be a string, got {}", where,
                                       t == nullptr ? "nothing" : describe(*t)));
    text += t->get_ref<const std::string&>();
  }
  return text;
}

std::vector<ChatMessage> parse_messages(const json& body) {
  const json* v = given(body, "messages");
  if (v == nullptr) bad("messages", "'messages' is required: an array of {role, content}");
  if (!v->is_array() || v->empty())
    bad("messages", fmt::format("'messages' must be a non-empty array, got {}", describe(*v)));
  std::vector<ChatMessage> messages;
  messages.reserve(v->size());
  for (std::size_t i = 0; i < v->size(); ++i) {
    const json& m = (*v)[i];
    const std::string where = fmt::format("messages[{}]", i);
    if (!m.is_object())
      bad(where,
          fmt::format("'{}' must be an object {{role, content}}, got {}", where, describe(m)));
    const json* role = given(m, "role");
    if (role == nullptr || !role->is_string())
      bad(where + ".role", fmt::format("'{}.role' must be a string, got {}", where,
                                       role == nullptr ? "nothing" : describe(*role)));
    std::string r = role->get<std::string>();
    if (r == "developer") r = "system";  // OpenAI's newer name for the system message
    if (r == "tool" || r == "function")
      bad(where + ".role",
          fmt::format("'{}.role' \"{}\" is not supported (tool calls are not)", where, r));
    if (r != "system" && r != "user" && r != "assistant")
      bad(where + ".role",
          fmt::format("'{}.role' must be one of \"system\", \"developer\", \"user\", "
                      "\"assistant\", got {}",
                      where, describe(*role)));
    const auto content = m.find("content");
    if (content == m.end()) bad(where + ".content", fmt::format("'{}.content' is required", where));
    std::string text;
    if (content->is_null()) {
      if (r != "assistant")
        bad(where + ".content",
            fmt::format("'{}.content' may be null only in an assistant message", where));
    } else {
      text = text_content(*content, where + ".content");
    }
    messages.push_back({std::move(r), std::move(text)});
  }
  return messages;
}

std::string parse_prompt(const json& body) {
  const json* v = given(body, "prompt");
  if (v == nullptr) bad("prompt", "'prompt' is required: the text to complete");
  if (v->is_string()) return v->get<std::string>();
  if (v->is_array() && !v->empty()) {
    if ((*v)[0].is_number())
      bad("prompt", "'prompt' as token ids is not supported; send the text as a string");
    if (v->size() > 1)
      bad("prompt",
          fmt::format("'prompt' with {} prompts is not supported; send one string", v->size()));
    if ((*v)[0].is_string()) return (*v)[0].get<std::string>();
    if ((*v)[0].is_array())
      bad("prompt", "'prompt' as token ids is not supported; send the text as a string");
  }
  bad("prompt", fmt::format("'prompt' must be a string, got {}", describe(*v)));
}

// max_tokens (or max_completion_tokens) checked against the limit; nullopt when not given.
std::optional<int> max_tokens_field(const json& body, const char* key, int limit) {
  const json* v = given(body, key);
  if (v == nullptr) return std::nullopt;
  const std::optional<std::int64_t> n = as_int(*v);
  if (!n || *n < 1 || *n > limit)
    bad(key, fmt::format("'{}' must be an integer in 1..{}, got {}", key, limit, describe(*v)));
  return static_cast<int>(*n);
}

int resolve_max_tokens(const json& body, Endpoint endpoint, const RequestLimits& limits) {
  const std::optional<int> max_tokens =
      max_tokens_field(body, "max_tokens", limits.max_tokens_limit);
  std::optional<int> completion;
  if (endpoint == Endpoint::kChat)
    completion = max_tokens_field(body, "max_completion_tokens", limits.max_tokens_limit);
  if (max_tokens && completion && *max_tokens != *completion)
    bad("max_completion_tokens",
        fmt::format("'max_tokens' ({}) and 'max_completion_tokens' ({}) disagree; send one",
                    *max_tokens, *completion));
  if (completion) return *completion;
  if (max_tokens) return *max_tokens;
  return std::max(1, std::min(limits.default_max_tokens, limits.max_tokens_limit));
}

// A number in [lo, hi] (lo excluded when open_lo), or `fallback` when not given.
float number_field(const json& body, const char* key, double lo, double hi, bool open_lo,
                   float fallback) {
  const json* v = given(body, key);
  if (v == nullptr) return fallback;
  const double x = v->is_number() ? v->get<double>() : 0.0;
  if (!v->is_number() || x > hi || (open_lo ? x <= lo : x < lo))
    bad(key, fmt::format("'{}' must be a number in {}{}, {}], got {}", key, open_lo ? "(" : "[", lo,
                         hi, describe(*v)));
  return static_cast<float>(x);
}

bool bool_field(const json& body, const char* key, bool fallback) {
  const json* v = given(body, key);
  if (v == nullptr) return fallback;
  if (!v->is_boolean())
    bad(key, fmt::format("'{}' must be true or false, got {}", key, describe(*v)));
  return v->get<bool>();
}

std::vector<std::string> parse_stop(const json& body, std::size_t max_stop) {
  const json* v = given(body, "stop");
  if (v == nullptr) return {};
  if (v->is_string()) {
    if (v->get_ref<const std::string&>().empty()) bad("stop", "'stop' must not be an empty string");
    return {v->get<std::string>()};
  }
  if (!v->is_array())
    bad("stop",
        fmt::format("'stop' must be a string or an array of strings, got {}", describe(*v)));
  if (v->size() > max_stop)
    bad("stop", fmt::format("'stop' has {} strings; at most {} are allowed", v->size(), max_stop));
  std::vector<std::string> stop;
  for (std::size_t i = 0; i < v->size(); ++i) {
    const json& s = (*v)[i];
    if (!s.is_string() || s.get_ref<const std::string&>().empty())
      bad("stop", fmt::format("'stop[{}]' must be a non-empty string, got {}", i, describe(s)));
    stop.push_back(s.get<std::string>());
  }
  return stop;
}

// The neutral values: what a client sends for a feature it does not use.
bool is_false(const json& v) { return v.is_boolean() && !v.get<bool>(); }
bool is_zero(const json& v) { return v.is_number() && v.get<double>() == 0; }
bool is_one(const json& v) { return v.is_number() && v.get<double>() == 1; }
bool is_empty(const json& v) {  // json::empty() is false for every string, "" included
  return v.is_string() ? v.get_ref<const std::string&>().empty()
                       : (v.is_array() || v.is_object()) && v.empty();
}
bool is_none_or_auto(const json& v) { return v == "none" || v == "auto"; }
bool is_text_format(const json& v) {
  return v.is_object() && v.size() == 1 && v.contains("type") && v["type"] == "text";
}

// Fields we do not implement, refused unless at their neutral value (request.h).
struct NeutralOnly {
  const char* key;
  bool (*neutral)(const json&);
  const char* why;
};
constexpr NeutralOnly kNeutralOnly[] = {
    {"logprobs", is_false, "log probabilities are not returned"},
    {"top_logprobs", is_zero, "log probabilities are not returned"},
    {"tools", is_empty, "tool calls are not supported"},
    {"tool_choice", is_none_or_auto, "tool calls are not supported"},
    {"functions", is_empty, "function calls are not supported"},
    {"function_call", is_none_or_auto, "function calls are not supported"},
    {"response_format", is_text_format, "only {\"type\": \"text\"} is (no JSON mode or schema)"},
    {"frequency_penalty", is_zero, "the output is the model's own, without penalties"},
    {"presence_penalty", is_zero, "the output is the model's own, without penalties"},
    {"logit_bias", is_empty, "the output is the model's own, without biases"},
    {"echo", is_false, "the prompt is not echoed"},
    {"best_of", is_one, "one completion is generated per request"},
    {"suffix", is_empty, "insertion after a prompt is not supported"},
};

void refuse_unsupported(const json& body) {
  for (const NeutralOnly& field : kNeutralOnly) {
    const json* v = given(body, field.key);
    if (v != nullptr && !field.neutral(*v))
      bad(field.key,
          fmt::format("'{}' {} is not supported: {}", field.key, describe(*v), field.why));
  }
}

}  // namespace

ApiError::ApiError(int status, std::string type, const std::string& message, std::string param)
    : std::runtime_error(message),
      status_(status),
      type_(std::move(type)),
      param_(std::move(param)) {}

nlohmann::json error_json(const ApiError& e) {
  return {{"error",
           {{"message", e.what()},
            {"type", e.type()},
            {"param", e.param().empty() ? json(nullptr) : json(e.param())},
            {"code", nullptr}}}};
}

CompletionRequest parse_request(std::string_view body_text, Endpoint endpoint,
                                const RequestLimits& limits) {
  const json body = parse_body(body_text);
  CompletionRequest r;
  r.endpoint = endpoint;
  if (const json* model = given(body, "model")) {
    if (!model->is_string())
      bad("model", fmt::format("'model' must be a string, got {}", describe(*model)));
    r.model = model->get<std::string>();
  }
  if (endpoint == Endpoint::kChat)
    r.messages = parse_messages(body);
  else
    r.prompt = parse_prompt(body);
  refuse_unsupported(body);
  r.max_tokens = resolve_max_tokens(body, endpoint, limits);
  r.temperature = number_field(body, "temperature", 0.0, 2.0, false, 1.0f);
  r.top_p = number_field(body, "top_p", 0.0, 1.0, true, 1.0f);
  if (const json* n = given(body, "n"); n != nullptr && as_int(*n) != std::int64_t{1})
    bad("n", fmt::format("'n' must be 1 (one choice per request), got {}", describe(*n)));
  if (const json* seed = given(body, "seed")) {
    if (seed->is_number_unsigned())
      r.seed = seed->get<std::uint64_t>();
    else if (seed->is_number_integer())
      r.seed = static_cast<std::uint64_t>(seed->get<std::int64_t>());  // wraps: still a seed
    else
      bad("seed", fmt::format("'seed' must be an integer, got {}", describe(*seed)));
  }
  r.stop = parse_stop(body, limits.max_stop);
  r.stream = bool_field(body, "stream", false);
  if (const json* options = given(body, "stream_options")) {
    if (!options->is_object())
      bad("stream_options",
          fmt::format("'stream_options' must be an object, got {}", describe(*options)));
    const json* usage = given(*options, "include_usage");
    if (usage != nullptr && !usage->is_boolean())
      bad("stream_options.include_usage",
          fmt::format("'stream_options.include_usage' must be true or false, got {}",
                      describe(*usage)));
    r.include_usage = r.stream && usage != nullptr && usage->get<bool>();
  }
  if (const json* prediction = given(body, "prediction")) {
    if (!prediction->is_object())
      bad("prediction",
          fmt::format("'prediction' must be an object {{\"type\": \"content\", \"content\": ...}}, "
                      "got {}",
                      describe(*prediction)));
    const json* type = given(*prediction, "type");
    if (type != nullptr && (!type->is_string() || type->get_ref<const std::string&>() != "content"))
      bad("prediction.type",
          fmt::format("'prediction.type' must be \"content\", got {}", describe(*type)));
    const json* content = given(*prediction, "content");
    if (content == nullptr)
      bad("prediction.content", "'prediction.content' is required: the predicted text");
    r.prediction = text_content(*content, "prediction.content");
    r.has_prediction = true;
  }
  return r;
}

}  // namespace reader::server
