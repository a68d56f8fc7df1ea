// find_context_copy: a backward scan for the latest, longest earlier occurrence of the
// context's suffix (context_copy.h).
#include "reader/context_copy.h"

#include <algorithm>

namespace reader {

ContextCopy find_context_copy(TokenSpan context, int max_match, int depth, int window) {
  ContextCopy copy;
  const auto n = static_cast<std::ptrdiff_t>(context.size());
  if (n < 2 || max_match < 1 || depth < 1 || window < 1) return copy;
  const Token last = context[static_cast<size_t>(n - 1)];
  const std::ptrdiff_t oldest = std::max<std::ptrdiff_t>(0, n - 1 - window);
  std::ptrdiff_t best = -1;
  int best_len = 0;
  for (std::ptrdiff_t p = n - 2; p >= oldest && best_len < max_match; --p) {
    if (context[static_cast<size_t>(p)] != last) continue;
    int len = 1;
    while (len < max_match && p - len >= 0 &&
           context[static_cast<size_t>(p - len)] == context[static_cast<size_t>(n - 1 - len)])
      ++len;
    if (len > best_len) {
      best_len = len;
      best = p;
    }
  }
  if (best < 0) return copy;
  const std::ptrdiff_t end = std::min(n, best + 1 + depth);
  copy.tokens.assign(context.begin() + best + 1, context.begin() + end);
  copy.match_len = best_len;
  return copy;
}

}  // namespace reader
