// OutputMemory: finished responses that later generations' drafters search.
//
// The paper: "this datastore can be built online by appending generated responses";
// SuffixDecoding's global tree. A server keeps one for all its requests. Bounded: it holds
// the newest responses up to max_tokens tokens; when a new one would exceed that, the
// oldest are dropped until a quarter of the room is free, and the trie is rebuilt from
// what remains (so a rebuild happens about once per max_tokens / 4 tokens added).
#pragma once

#include <cstddef>
#include <deque>

#include "reader/tokens.h"
#include "reader/trie.h"

namespace reader {

class OutputMemory {
 public:
  // max_depth: longest window stored (lookups match at most max_depth - 1 tokens).
  explicit OutputMemory(std::size_t max_tokens = 1u << 16, int max_depth = 16);
  void add(TokenSpan response);  // a finished response (empty ones are ignored)
  const ShortTermTrie& trie() const { return trie_; }
  std::size_t tokens() const { return tokens_; }          // tokens held
  std::size_t responses() const { return kept_.size(); }  // responses held
  std::size_t evicted() const { return evicted_; }        // responses dropped so far
  std::size_t max_tokens() const { return max_tokens_; }

 private:
  std::size_t max_tokens_;   // room, in tokens
  std::deque<Tokens> kept_;  // held responses, oldest first
  std::size_t tokens_ = 0;   // sum of kept_ sizes
  std::size_t evicted_ = 0;  // responses dropped
  ShortTermTrie trie_;       // every window of every held response
};

}  // namespace reader
