// ContextCopy: what the text is most likely copying right now. The context's longest suffix
// that occurred earlier in the same context, at its latest earlier occurrence, and the tokens
// that followed it there. The trie (trie.h) ranks continuations by how often they followed a
// suffix, which loses the thread where a short suffix ("\n    ", " the") recurs with many
// continuations; a copy of a passage follows the one place it is copying from. The two are
// right in different places (docs/calibration.md, session 27).
#pragma once

#include "reader/tokens.h"

namespace reader {

struct ContextCopy {
  Tokens tokens;      // the continuation (empty: the last token never occurred before)
  int match_len = 0;  // tokens of the context's suffix that match before it
};

// Scans the last `window` tokens of `context` (its last token excluded) from the newest
// back; the longest match, at most `max_match` tokens, wins, the newest among equals. Its
// continuation is cut at `depth` tokens and at the end of the context. O(window + matches
// x max_match).
ContextCopy find_context_copy(TokenSpan context, int max_match, int depth, int window);

}  // namespace reader
