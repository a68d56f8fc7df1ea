// OpenAI request parsing for `reader serve` (apps/server/request.h): defaults, every accepted
// field, one-line 400 errors naming the field, and random mutations that only ever give a
// request or an ApiError.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "request.h"

namespace reader::server {
namespace {

const RequestLimits kLimits;

CompletionRequest chat(const std::string& body, const RequestLimits& limits = kLimits) {
  return parse_request(body, Endpoint::kChat, limits);
}

CompletionRequest completion(const std::string& body, const RequestLimits& limits = kLimits) {
  return parse_request(body, Endpoint::kCompletion, limits);
}

// The ApiError a body gives (fails the test when it parses).
ApiError error_of(const std::string& body, Endpoint endpoint = Endpoint::kChat,
                  const RequestLimits& limits = kLimits) {
  try {
    parse_request(body, endpoint, limits);
  } catch (const ApiError& e) {
    return e;
  }
  ADD_FAILURE() << "no error for " << body;
  return ApiError(0, "", "");
}

const char* const kUser = R"("messages": [{"role": "user", "content": "Hi"}])";

TEST(RequestTest, MinimalChatGetsOpenAIDefaults) {
  const CompletionRequest r = chat(std::string("{") + kUser + "}");
  EXPECT_EQ(r.endpoint, Endpoint::kChat);
  EXPECT_EQ(r.model, "");
  ASSERT_EQ(r.messages.size(), 1u);
  EXPECT_EQ(r.messages[0].role, "user");
  EXPECT_EQ(r.messages[0].content, "Hi");
  EXPECT_EQ(r.prompt, "");
  EXPECT_EQ(r.max_tokens, 256);
  EXPECT_EQ(r.temperature, 1.0f);
  EXPECT_EQ(r.top_p, 1.0f);
  EXPECT_FALSE(r.seed.has_value());
  EXPECT_TRUE(r.stop.empty());
  EXPECT_FALSE(r.stream);
  EXPECT_FALSE(r.include_usage);
  EXPECT_FALSE(r.has_prediction);
}

TEST(RequestTest, FullChatRequest) {
  const CompletionRequest r = chat(R"({
    "model": "smollm2",
    "messages": [
      {"role": "developer", "content": "Be brief."},
      {"role": "user", "content": [{"type": "text", "text": "Fix "}, {"type": "text", "text": "it"}],
       "name": "ann"},
      {"role": "assistant", "content": null},
      {"role": "system", "content": []}
    ],
    "max_completion_tokens": 64, "temperature": 0, "top_p": 0.5, "n": 1, "seed": -7,
    "stop": ["\n\n", "END"], "stream": true, "stream_options": {"include_usage": true},
    "prediction": {"type": "content", "content": "def f(x):\n  return x"}})");
  EXPECT_EQ(r.model, "smollm2");
  ASSERT_EQ(r.messages.size(), 4u);
  EXPECT_EQ(r.messages[0].role, "system");  // developer is OpenAI's newer name for it
  EXPECT_EQ(r.messages[0].content, "Be brief.");
  EXPECT_EQ(r.messages[1].content, "Fix it");
  EXPECT_EQ(r.messages[2].role, "assistant");
  EXPECT_EQ(r.messages[2].content, "");
  EXPECT_EQ(r.messages[3].content, "");
  EXPECT_EQ(r.max_tokens, 64);
  EXPECT_EQ(r.temperature, 0.0f);
  EXPECT_EQ(r.top_p, 0.5f);
  ASSERT_TRUE(r.seed.has_value());
  EXPECT_EQ(*r.seed, static_cast<std::uint64_t>(-7));
  EXPECT_EQ(r.stop, (std::vector<std::string>{"\n\n", "END"}));
  EXPECT_TRUE(r.stream);
  EXPECT_TRUE(r.include_usage);
  EXPECT_TRUE(r.has_prediction);
  EXPECT_EQ(r.prediction, "def f(x):\n  return x");
}

TEST(RequestTest, Completions) {
  CompletionRequest r = completion(R"({"prompt": "Once upon", "max_tokens": 16, "stop": "\n",
                                       "seed": 18446744073709551615, "messages": 3})");
  EXPECT_EQ(r.endpoint, Endpoint::kCompletion);
  EXPECT_EQ(r.prompt, "Once upon");
  EXPECT_TRUE(r.messages.empty());  // ignored on this endpoint
  EXPECT_EQ(r.max_tokens, 16);
  EXPECT_EQ(r.stop, std::vector<std::string>{"\n"});
  EXPECT_EQ(r.seed, std::optional<std::uint64_t>(18446744073709551615ull));
  EXPECT_EQ(completion(R"({"prompt": ["one string"]})").prompt, "one string");
  EXPECT_EQ(completion(R"({"prompt": ""})").prompt, "");
  // max_completion_tokens is a chat field: ignored here.
  EXPECT_EQ(completion(R"({"prompt": "a", "max_completion_tokens": "x"})").max_tokens, 256);
  // prompt is not a chat field.
  EXPECT_EQ(chat(std::string("{") + kUser + R"(, "prompt": 5})").prompt, "");
}

TEST(RequestTest, BoundariesAreAccepted) {
  const std::string head = std::string("{") + kUser + ", ";
  EXPECT_EQ(chat(head + R"("max_tokens": 1})").max_tokens, 1);
  EXPECT_EQ(chat(head + R"("max_tokens": 4096})").max_tokens, 4096);
  EXPECT_EQ(chat(head + R"("max_tokens": 7, "max_completion_tokens": 7})").max_tokens, 7);
  EXPECT_EQ(chat(head + R"("temperature": 2})").temperature, 2.0f);
  EXPECT_EQ(chat(head + R"("temperature": 0.0})").temperature, 0.0f);
  EXPECT_EQ(chat(head + R"("top_p": 1})").top_p, 1.0f);
  EXPECT_EQ(chat(head + R"("top_p": 1e-9})").top_p, 1e-9f);
  EXPECT_EQ(chat(head + R"("stop": ["a", "b", "c", "d"]})").stop.size(), 4u);
  EXPECT_EQ(chat(head + R"("stop": []})").stop.size(), 0u);
  EXPECT_EQ(chat(head + R"("seed": 0})").seed, std::optional<std::uint64_t>(0));
  EXPECT_TRUE(chat(head + R"("prediction": {"content": ""}})").has_prediction);
  EXPECT_EQ(
      chat(head + R"("prediction": {"content": [{"type": "text", "text": "x"}]}})").prediction,
      "x");
}

TEST(RequestTest, NullMeansAbsent) {
  const CompletionRequest r = chat(std::string("{") + kUser + R"(, "model": null,
      "max_tokens": null, "max_completion_tokens": null, "temperature": null, "top_p": null,
      "n": null, "seed": null, "stop": null, "stream": null, "stream_options": null,
      "prediction": null})");
  EXPECT_EQ(r.max_tokens, 256);
  EXPECT_EQ(r.temperature, 1.0f);
  EXPECT_FALSE(r.seed.has_value());
  EXPECT_FALSE(r.stream);
  EXPECT_FALSE(r.has_prediction);
}

TEST(RequestTest, UsageOnlyWhenStreaming) {
  const std::string head = std::string("{") + kUser + ", ";
  EXPECT_FALSE(chat(head + R"("stream_options": {"include_usage": true}})").include_usage);
  EXPECT_FALSE(chat(head + R"("stream": true, "stream_options": {}})").include_usage);
  EXPECT_TRUE(
      chat(head + R"("stream": true, "stream_options": {"include_usage": true}})").include_usage);
}

TEST(RequestTest, IgnoredAndUnknownFieldsAreIgnored) {
  std::string body = std::string("{") + kUser;
  for (std::string_view f : kIgnoredFields) body += ", \"" + std::string(f) + "\": [{\"x\": 1}]";
  body += R"(, "some_future_field": {"a": [1, 2]}})";
  const CompletionRequest r = chat(body);
  EXPECT_EQ(r.messages.size(), 1u);
  EXPECT_EQ(r.max_tokens, 256);
}

// What clients and frameworks send by default must pass; asking for what we do not do must
// not be silently ignored.
TEST(RequestTest, UnsupportedFieldsPassOnlyAtTheirNeutralValue) {
  const CompletionRequest r = chat(std::string("{") + kUser +
                                   R"(, "logprobs": false, "top_logprobs": 0, "tools": [],
      "tool_choice": "none", "functions": [], "function_call": "auto",
      "response_format": {"type": "text"}, "frequency_penalty": 0, "presence_penalty": 0.0,
      "logit_bias": {}, "echo": false, "best_of": 1, "suffix": ""})");
  EXPECT_EQ(r.messages.size(), 1u);
  const std::vector<std::pair<std::string, std::string>> refused = {
      {R"("logprobs": true)", "'logprobs' true is not supported: log probabilities"},
      {R"("top_logprobs": 3)", "'top_logprobs' 3 is not supported"},
      {R"("tools": [{"type": "function"}])", "tool calls are not supported"},
      {R"("tool_choice": "required")", "'tool_choice' \"required\" is not supported"},
      {R"("response_format": {"type": "json_object"})", "no JSON mode or schema"},
      {R"("frequency_penalty": 0.5)", "without penalties"},
      {R"("logit_bias": {"15": 100})", "without biases"},
      {R"("echo": true)", "not echoed"},
      {R"("best_of": 2)", "one completion"},
      {R"("suffix": "}")", "insertion"},
  };
  for (const auto& [field, message] : refused) {
    const std::string key = field.substr(1, field.find('"', 1) - 1);
    try {
      chat(std::string("{") + kUser + ", " + field + "}");
      ADD_FAILURE() << field << " accepted";
    } catch (const ApiError& e) {
      EXPECT_EQ(e.status(), 400);
      EXPECT_EQ(e.param(), key);
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  }
}

TEST(RequestTest, LimitsApply) {
  const RequestLimits small{.max_tokens_limit = 100, .default_max_tokens = 500, .max_stop = 1};
  const std::string head = std::string("{") + kUser;
  EXPECT_EQ(chat(head + "}", small).max_tokens, 100);  // the default is capped at the limit
  EXPECT_EQ(error_of(head + R"(, "max_tokens": 101})", Endpoint::kChat, small).what(),
            std::string("'max_tokens' must be an integer in 1..100, got 101"));
  EXPECT_EQ(error_of(head + R"(, "stop": ["a", "b"]})", Endpoint::kChat, small).what(),
            std::string("'stop' has 2 strings; at most 1 are allowed"));
  EXPECT_EQ(chat(head + R"(, "stop": ["a"]})", small).stop.size(), 1u);
}

// One bad body: the param the error names and a fragment of its message.
struct BadCase {
  const char* body;   // request body
  Endpoint endpoint;  // where it is posted
  const char* param;  // expected param ("" for the body as a whole)
  const char* says;   // expected fragment of the message
};

TEST(RequestTest, BadRequestsNameTheField) {
  const Endpoint kC = Endpoint::kChat, kP = Endpoint::kCompletion;
  const std::string deep = std::string(100, '[') + std::string(100, ']');
  const std::string deep_body = std::string("{") + kUser + ", \"x\": " + deep + "}";
  const std::vector<BadCase> cases = {
      {"", kC, "", "request body is empty"},
      {"  \n", kP, "", "request body is empty"},
      {"{\"messages\": ", kC, "", "not valid JSON (syntax error at byte 14)"},
      {"{'a': 1}", kC, "", "not valid JSON"},
      {"\xff\xfe", kC, "", "not valid JSON"},
      {"{\"model\": \"\xc3\"}", kC, "", "not valid JSON"},  // bad UTF-8 inside a string
      {R"({"max_tokens": 1e400})", kC, "", "not valid JSON (a number out of range)"},  // fuzz
      {"[1, 2]", kC, "", "must be a JSON object, got an array"},
      {"\"hi\"", kP, "", "must be a JSON object, got \"hi\""},
      {deep_body.c_str(), kC, "", "nests deeper than 64 levels"},
      {"{}", kC, "messages", "'messages' is required"},
      {R"({"messages": null})", kC, "messages", "'messages' is required"},
      {R"({"messages": []})", kC, "messages", "non-empty array, got an empty array"},
      {R"({"messages": "hi"})", kC, "messages", "non-empty array, got \"hi\""},
      {R"({"messages": ["hi"]})", kC, "messages[0]", "'messages[0]' must be an object"},
      {R"({"messages": [{"content": "x"}]})", kC, "messages[0].role", "got nothing"},
      {R"({"messages": [{"role": 1, "content": "x"}]})", kC, "messages[0].role",
       "must be a string, got 1"},
      {R"({"messages": [{"role": "user", "content": "a"}, {"role": "tool", "content": "x"}]})", kC,
       "messages[1].role", "\"tool\" is not supported"},
      {R"({"messages": [{"role": "bot", "content": "x"}]})", kC, "messages[0].role",
       "must be one of \"system\", \"developer\", \"user\", \"assistant\", got \"bot\""},
      {R"({"messages": [{"role": "user"}]})", kC, "messages[0].content",
       "'messages[0].content' is required"},
      {R"({"messages": [{"role": "user", "content": null}]})", kC, "messages[0].content",
       "null only in an assistant message"},
      {R"({"messages": [{"role": "user", "content": 5}]})", kC, "messages[0].content",
       "string or an array of text parts, got 5"},
      {R"({"messages": [{"role": "user", "content": ["x"]}]})", kC, "messages[0].content[0]",
       "must be an object"},
      {R"({"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {}}]}]})",
       kC, "messages[0].content[0].type", "images, audio and files are not supported"},
      {R"({"messages": [{"role": "user", "content": [{"type": "text"}]}]})", kC,
       "messages[0].content[0].text", "must be a string, got nothing"},
      {"{}", kP, "prompt", "'prompt' is required"},
      {R"({"prompt": 5})", kP, "prompt", "'prompt' must be a string, got 5"},
      {R"({"prompt": []})", kP, "prompt", "got an empty array"},
      {R"({"prompt": [1, 2, 3]})", kP, "prompt", "token ids is not supported"},
      {R"({"prompt": [[1, 2]]})", kP, "prompt", "token ids is not supported"},
      {R"({"prompt": ["a", "b"]})", kP, "prompt", "with 2 prompts is not supported"},
      {R"({"prompt": [{}]})", kP, "prompt", "must be a string, got an array"},
      {R"({"prompt": "x", "max_tokens": -3})", kP, "max_tokens",
       "'max_tokens' must be an integer in 1..4096, got -3"},
      {R"({"prompt": "x", "max_tokens": 0})", kP, "max_tokens", "got 0"},
      {R"({"prompt": "x", "max_tokens": 4097})", kP, "max_tokens", "got 4097"},
      {R"({"prompt": "x", "max_tokens": 1.5})", kP, "max_tokens", "got 1.5"},
      {R"({"prompt": "x", "max_tokens": 16.0})", kP, "max_tokens", "got 16.0"},
      {R"({"prompt": "x", "max_tokens": "16"})", kP, "max_tokens", "got \"16\""},
      {R"({"prompt": "x", "max_tokens": 18446744073709551615})", kP, "max_tokens",
       "got 18446744073709551615"},
      {R"({"messages": [{"role": "user", "content": "x"}], "max_completion_tokens": 0})", kC,
       "max_completion_tokens", "'max_completion_tokens' must be an integer in 1..4096, got 0"},
      {R"({"messages": [{"role": "user", "content": "x"}], "max_tokens": 5,
           "max_completion_tokens": 6})",
       kC, "max_completion_tokens",
       "'max_tokens' (5) and 'max_completion_tokens' (6) disagree; send one"},
      {R"({"prompt": "x", "temperature": 2.5})", kP, "temperature",
       "'temperature' must be a number in [0, 2], got 2.5"},
      {R"({"prompt": "x", "temperature": -0.1})", kP, "temperature", "got -0.1"},
      {R"({"prompt": "x", "temperature": "hot"})", kP, "temperature", "got \"hot\""},
      {R"({"prompt": "x", "top_p": 0})", kP, "top_p", "'top_p' must be a number in (0, 1], got 0"},
      {R"({"prompt": "x", "top_p": 1.01})", kP, "top_p", "got 1.01"},
      {R"({"prompt": "x", "n": 2})", kP, "n", "'n' must be 1 (one choice per request), got 2"},
      {R"({"prompt": "x", "n": "1"})", kP, "n", "got \"1\""},
      {R"({"prompt": "x", "seed": 1.5})", kP, "seed", "'seed' must be an integer, got 1.5"},
      {R"({"prompt": "x", "seed": "7"})", kP, "seed", "got \"7\""},
      {R"({"prompt": "x", "stop": ["a", "b", "c", "d", "e"]})", kP, "stop",
       "'stop' has 5 strings; at most 4 are allowed"},
      {R"({"prompt": "x", "stop": ""})", kP, "stop", "must not be an empty string"},
      {R"({"prompt": "x", "stop": ["a", ""]})", kP, "stop",
       "'stop[1]' must be a non-empty string, got \"\""},
      {R"({"prompt": "x", "stop": [1]})", kP, "stop", "'stop[0]' must be a non-empty string"},
      {R"({"prompt": "x", "stop": {"a": 1}})", kP, "stop", "got an object"},
      {R"({"prompt": "x", "stream": "yes"})", kP, "stream",
       "'stream' must be true or false, got \"yes\""},
      {R"({"prompt": "x", "stream": 1})", kP, "stream", "got 1"},
      {R"({"prompt": "x", "stream_options": true})", kP, "stream_options",
       "must be an object, got true"},
      {R"({"prompt": "x", "stream_options": {"include_usage": "yes"}})", kP,
       "stream_options.include_usage", "must be true or false"},
      {R"({"prompt": "x", "prediction": "text"})", kP, "prediction", "must be an object"},
      {R"({"prompt": "x", "prediction": {"type": "diff", "content": ""}})", kP, "prediction.type",
       "'prediction.type' must be \"content\", got \"diff\""},
      {R"({"prompt": "x", "prediction": {"type": "content"}})", kP, "prediction.content",
       "'prediction.content' is required"},
      {R"({"prompt": "x", "prediction": {"content": 5}})", kP, "prediction.content",
       "string or an array of text parts, got 5"},
      {R"({"prompt": "x", "model": 5})", kP, "model", "'model' must be a string, got 5"},
  };
  for (const BadCase& c : cases) {
    const ApiError e = error_of(c.body, c.endpoint);
    const std::string what = e.what();
    EXPECT_EQ(e.status(), 400) << c.body;
    EXPECT_EQ(e.type(), "invalid_request_error") << c.body;
    EXPECT_EQ(e.param(), c.param) << c.body;
    EXPECT_NE(what.find(c.says), std::string::npos) << c.body << "\n  got: " << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
}

TEST(RequestTest, LongValuesAreQuotedShort) {
  const std::string long_role = std::string(30, 'a') + "\xc3\xa9" + std::string(100, 'b');
  const ApiError e =
      error_of(R"({"messages": [{"role": ")" + long_role + R"(", "content": "x"}]})");
  const std::string what = e.what();
  EXPECT_LT(what.size(), 200u);
  EXPECT_NE(what.find("...\""), std::string::npos) << what;
  // Cut at 40 bytes would split the two-byte character: the cut backs off to its start.
  const std::string cut_role = std::string(39, 'a') + "\xc3\xa9";
  const std::string cut =
      error_of(R"({"messages": [{"role": ")" + cut_role + R"(x", "content": ""}]})").what();
  EXPECT_NE(cut.find(std::string(39, 'a') + "...\""), std::string::npos) << cut;
  EXPECT_NO_THROW(error_json(e).dump());
}

TEST(RequestTest, ErrorJsonHasOpenAIShape) {
  const ApiError e = error_of(R"({"prompt": "x", "top_p": 0})", Endpoint::kCompletion);
  const nlohmann::json j = error_json(e);
  ASSERT_TRUE(j.contains("error"));
  EXPECT_EQ(j["error"]["message"], e.what());
  EXPECT_EQ(j["error"]["type"], "invalid_request_error");
  EXPECT_EQ(j["error"]["param"], "top_p");
  EXPECT_TRUE(j["error"]["code"].is_null());
  EXPECT_EQ(j["error"].size(), 4u);
  const nlohmann::json whole = error_json(error_of("nope"));
  EXPECT_TRUE(whole["error"]["param"].is_null());
  const ApiError custom(404, "not_found_error", "no such model", "model");
  EXPECT_EQ(custom.status(), 404);
  EXPECT_EQ(error_json(custom)["error"]["type"], "not_found_error");
}

// Random byte-level mutations of valid bodies: parse_request gives a request or an ApiError
// whose JSON serialises, never anything else.
TEST(RequestTest, RandomMutationsGiveRequestsOrApiErrors) {
  const std::vector<std::string> seeds = {
      std::string("{") + kUser + "}",
      R"({"model": "m", "messages": [{"role": "system", "content": [{"type": "text", "text": "a"}]},
          {"role": "user", "content": "b"}, {"role": "assistant", "content": null}],
          "max_tokens": 10, "temperature": 0.5, "top_p": 0.9, "n": 1, "seed": 3,
          "stop": ["x", "y"], "stream": true, "stream_options": {"include_usage": true},
          "prediction": {"type": "content", "content": "abc"}, "logprobs": true})",
      R"({"prompt": ["p"], "max_tokens": 5, "stop": "\n", "seed": -1})",
  };
  const std::string alphabet = "{}[]:,\"\\ 0123456789.-eEtrufalsn\xc3\xa9\x01";
  std::mt19937 rng(12345);
  int parsed = 0, errors = 0;
  for (int iter = 0; iter < 20000; ++iter) {
    std::string body = seeds[rng() % seeds.size()];
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int k = 0; k < edits && !body.empty(); ++k) {
      const std::size_t at = rng() % body.size();
      const char c = alphabet[rng() % alphabet.size()];
      switch (rng() % 4) {
        case 0:
          body[at] = c;
          break;
        case 1:
          body.insert(body.begin() + static_cast<std::ptrdiff_t>(at), c);
          break;
        case 2:
          body.erase(at, 1 + rng() % 3);
          break;
        default:
          body = body.substr(0, at);
          break;
      }
    }
    for (Endpoint endpoint : {Endpoint::kChat, Endpoint::kCompletion}) {
      try {
        const CompletionRequest r = parse_request(body, endpoint, kLimits);
        EXPECT_GE(r.max_tokens, 1);
        EXPECT_LE(r.max_tokens, kLimits.max_tokens_limit);
        ++parsed;
      } catch (const ApiError& e) {
        ++errors;
        ASSERT_EQ(e.status(), 400);
        ASSERT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
        ASSERT_NO_THROW(error_json(e).dump()) << body;
      }
    }
  }
  EXPECT_GT(parsed, 100);  // the mutations exercise both outcomes
  EXPECT_GT(errors, 100);
}

}  // namespace
}  // namespace reader::server
