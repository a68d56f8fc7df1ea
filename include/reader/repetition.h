// Self-repetition metric (paper, section 4.1): an upper bound on the acceptance length that
// search-derived drafts can reach on a given prompt/response pair. A pointer walks the
// response; at each step it jumps over the longest substring starting there that also occurs
// earlier (in the prompt, or earlier in the response), or over one token if there is none. The
// metric is response tokens / pointer advances, i.e. the average acceptance length of an
// infinite draft tree indexing all previously seen history.
//
// What "occurs earlier" means here (LZ77-style, overlap allowed): an occurrence either lies
// entirely inside the prompt, or starts in the response strictly before the pointer; such an
// occurrence may run past the pointer (so "a a a a" after one "a" is matched in one step).
// Occurrences do not straddle the prompt/response boundary. An optional ExternalMatcher (the
// datastore) offers a third source; the step takes the longest of the matches.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "reader/tokens.h"

namespace reader {

// Longest-prefix queries against an external text collection (the suffix-array datastore).
class ExternalMatcher {
 public:
  virtual ~ExternalMatcher() = default;
  // Length of the longest prefix of needle that occurs somewhere in the external text.
  virtual std::size_t longest_match_from(TokenSpan needle) const = 0;
};

struct RepetitionStats {
  std::size_t response_tokens = 0;  // length of the response
  std::size_t advances = 0;         // pointer moves (= verifier calls of the ideal drafter)
  double metric = 0.0;              // response_tokens / advances; 0 for an empty response
  std::size_t matched_tokens = 0;   // response tokens covered by non-empty matches
  std::size_t longest_match = 0;    // longest single match
};

// The metric for one prompt/response pair. O((|prompt| + |response|) log) time, linear memory,
// plus one external query per pointer advance when `external` is given.
RepetitionStats self_repetition(TokenSpan prompt, TokenSpan response,
                                const ExternalMatcher* external = nullptr);

// For every response position i, the length of the longest substring starting at i that occurs
// earlier in the sense above (inside the prompt, or starting in the response before i).
std::vector<std::size_t> longest_previous_factors(TokenSpan prompt, TokenSpan response);

}  // namespace reader
