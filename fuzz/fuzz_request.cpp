// Fuzz target: parse_request (apps/server/request.h) on both endpoints. Any body must give
// a CompletionRequest within the limits or an ApiError whose JSON serialises; anything else
// (another exception, a crash, a sanitizer report) is a bug.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "request.h"

namespace {

using reader::server::ApiError;
using reader::server::CompletionRequest;
using reader::server::Endpoint;
using reader::server::RequestLimits;

void check(bool ok) {
  if (!ok) std::abort();
}

void parse(std::string_view body, Endpoint endpoint, const RequestLimits& limits) {
  try {
    const CompletionRequest r = reader::server::parse_request(body, endpoint, limits);
    check(r.endpoint == endpoint);
    check(r.max_tokens >= 1 && r.max_tokens <= limits.max_tokens_limit);
    check(r.temperature >= 0.0f && r.temperature <= 2.0f);
    check(r.top_p > 0.0f && r.top_p <= 1.0f);
    check(r.stop.size() <= limits.max_stop);
    for (const auto& s : r.stop) check(!s.empty());
    check(!r.include_usage || r.stream);
    check(r.has_prediction || r.prediction.empty());
    if (endpoint == Endpoint::kChat) {
      check(!r.messages.empty() && r.prompt.empty());
      for (const auto& m : r.messages)
        check(m.role == "system" || m.role == "user" || m.role == "assistant");
    } else {
      check(r.messages.empty());
    }
  } catch (const ApiError& e) {
    check(e.status() == 400 && !e.type().empty());
    check(std::string_view(e.what()).find('\n') == std::string_view::npos);
    (void)reader::server::error_json(e).dump();  // throws on invalid UTF-8: a crash here
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  parse(body, Endpoint::kChat, RequestLimits{});
  parse(body, Endpoint::kCompletion, RequestLimits{});
  parse(body, Endpoint::kChat,
        RequestLimits{.max_tokens_limit = 8, .default_max_tokens = 16, .max_stop = 1});
  return 0;
}
