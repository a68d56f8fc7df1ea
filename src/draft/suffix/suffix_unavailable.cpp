// Method "suffix" in a build without ArcticInference's suffix tree sources.
#include <stdexcept>

#include "reader/suffix_drafter.h"

namespace reader {

bool suffix_decoding_available() { return false; }

std::unique_ptr<Drafter> make_suffix_drafter(const SuffixParams&, int) {
  throw std::invalid_argument(
      "method 'suffix' is unavailable: this build has no SuffixDecoding sources (run "
      "scripts/setup.sh, which fetches them from the arctic-inference sdist, then configure "
      "and build again)");
}

}  // namespace reader
