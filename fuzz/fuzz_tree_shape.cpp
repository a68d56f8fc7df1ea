// Fuzz target: parse_tree_shape (reader/drafter.h), the --tree and profile "shape" JSON.
// Any text must parse or throw std::invalid_argument; a parsed shape must validate or throw
// std::invalid_argument; a valid shape must survive a JSON round trip unchanged.
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string_view>

#include "reader/drafter.h"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

bool same(const reader::TreeShape& a, const reader::TreeShape& b) {
  if (a.speculator.size() != b.speculator.size()) return false;
  for (std::size_t i = 0; i < a.speculator.size(); ++i)
    if (a.speculator[i].parent != b.speculator[i].parent ||
        a.speculator[i].rank != b.speculator[i].rank)
      return false;
  return a.d_search == b.d_search && a.d_deep == b.d_deep && a.d_copy == b.d_copy &&
         a.deepen_at == b.deepen_at && a.max_suffix_len == b.max_suffix_len &&
         a.adaptive == b.adaptive && a.single_path == b.single_path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  reader::TreeShape shape;
  try {
    shape = reader::parse_tree_shape(text, "fuzz");
  } catch (const std::invalid_argument&) {
    return 0;
  }
  try {
    shape.validate(64);
  } catch (const std::invalid_argument&) {
    return 0;
  }
  check(shape.budget() >= 1 && shape.budget() <= 512);
  const reader::TreeShape again = reader::parse_tree_shape(reader::tree_shape_to_json(shape), "");
  check(same(shape, again));
  return 0;
}
