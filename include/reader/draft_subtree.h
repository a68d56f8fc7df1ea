// A small draft tree produced by retrieval (trie extraction, SearchPath's tree variant).
// Stored as a parents array so the verifier can lay it out as a tree-attention mask without
// pointer chasing; node i's parent always precedes it, -1 meaning "hangs off the context".
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "reader/tokens.h"

namespace reader {

struct DraftSubtree {
  Tokens tokens;                      // drafted token of each node, parents before children
  std::vector<std::int32_t> parents;  // index of each node's parent, -1 = attached to the context
  std::vector<std::uint64_t> counts;  // how often the node's token was seen after its prefix
  std::vector<double> probs;          // estimated path probability: product of count ratios

  std::size_t size() const { return tokens.size(); }
  bool empty() const { return tokens.empty(); }
  void clear() {
    tokens.clear();
    parents.clear();
    counts.clear();
    probs.clear();
  }
  void push(Token token, std::int32_t parent, std::uint64_t count, double prob) {
    tokens.push_back(token);
    parents.push_back(parent);
    counts.push_back(count);
    probs.push_back(prob);
  }
  friend bool operator==(const DraftSubtree&, const DraftSubtree&) = default;
};

}  // namespace reader
