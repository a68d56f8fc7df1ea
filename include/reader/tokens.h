// Token ids: the currency every stage of reader trades in.
// Retrieval, drafting and verification all speak in these; only the model
// (src/verify/model.cpp) and the apps convert between text and tokens.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace reader {

using Token = std::int32_t;  // same width as llama_token
using TokenSpan = std::span<const Token>;
using Tokens = std::vector<Token>;

// A candidate next token and how often it was seen after the matched context.
struct TokenCount {
  Token token = 0;
  std::uint64_t count = 0;
  friend bool operator==(const TokenCount&, const TokenCount&) = default;
};

}  // namespace reader
