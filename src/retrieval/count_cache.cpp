// CountCache: sharded, byte-bounded memo of next-token counts.
#include "retrieval/count_cache.h"

#include <mutex>

namespace reader::detail {
namespace {

std::size_t approx_bytes(const NextTokens& value) {
  return sizeof(NextTokens) + value.counts.size() * sizeof(TokenCount) + 64;  // + node overhead
}

}  // namespace

bool CountCache::find(const SuffixRange& r, NextTokens& out) const {
  const std::uint64_t k = key(r);
  const Shard& s = shard(k);
  std::shared_lock lock(s.mutex);
  const auto it = s.map.find(k);
  if (it == s.map.end()) return false;
  out = it->second;
  return true;
}

void CountCache::insert(const SuffixRange& r, const NextTokens& value) const {
  const std::uint64_t k = key(r);
  const std::size_t bytes = approx_bytes(value);
  if (bytes > shard_budget_) return;
  Shard& s = shard(k);
  std::unique_lock lock(s.mutex);
  if (s.bytes + bytes > shard_budget_) {  // crude but O(1) amortised: start the shard afresh
    s.map.clear();
    s.bytes = 0;
  }
  if (s.map.emplace(k, value).second) s.bytes += bytes;
}

}  // namespace reader::detail
