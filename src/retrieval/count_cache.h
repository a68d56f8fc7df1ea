// Memo of next-token counts for large suffix-array ranges. Those are the frequent contexts
// ("of the", ". The"): each costs thousands of reads to count, yet they recur in almost every
// SearchPath, so remembering them turns the slowest lookups into the cheapest. Thread-safe;
// bounded in bytes (a shard that overflows is simply cleared).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <shared_mutex>
#include <unordered_map>

#include "reader/datastore.h"

namespace reader::detail {

class CountCache {
 public:
  explicit CountCache(std::size_t max_bytes) : shard_budget_(max_bytes / kShards) {}

  // A range is identified by its start and matched length: ranges of distinct n-grams of one
  // length are disjoint.
  bool find(const SuffixRange& r, NextTokens& out) const;
  void insert(const SuffixRange& r, const NextTokens& value) const;

 private:
  static constexpr std::size_t kShards = 16;
  struct Shard {
    mutable std::shared_mutex mutex;                    // readers share, inserts exclude
    std::unordered_map<std::uint64_t, NextTokens> map;  // key() -> counts
    std::size_t bytes = 0;                              // approximate memory held
  };
  static std::uint64_t key(const SuffixRange& r) {
    return (r.lo << 20) ^ static_cast<std::uint64_t>(r.length);  // lo < 2^32, so no collision
  }                                                              // for lengths below 2^20
  Shard& shard(std::uint64_t k) const { return shards_[(k * 0x9e3779b97f4a7c15ull) >> 60]; }

  std::size_t shard_budget_;                   // bytes per shard before it is cleared
  mutable std::array<Shard, kShards> shards_;  // the memo, split to reduce contention
};

}  // namespace reader::detail
