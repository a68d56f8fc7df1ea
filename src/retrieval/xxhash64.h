// XXH64 (seed 0 by default), streaming: the datastore file checksum. Written in-house so the
// format needs no extra dependency; matches the reference xxHash XXH64 output bit for bit.
#pragma once

#include <cstddef>
#include <cstdint>

namespace reader::detail {

class Xxh64 {
 public:
  explicit Xxh64(std::uint64_t seed = 0);
  // Feeds bytes; any split of the same byte sequence gives the same digest.
  void update(const void* data, std::size_t len);
  // Hash of everything fed so far (does not reset the state).
  std::uint64_t digest() const;
  // One-shot convenience.
  static std::uint64_t hash(const void* data, std::size_t len, std::uint64_t seed = 0);

 private:
  std::uint64_t seed_;           // kept for the short-input digest path
  std::uint64_t lanes_[4];       // the four accumulators of full 32-byte stripes
  std::uint64_t total_len_ = 0;  // bytes fed so far
  unsigned char pending_[32];    // an incomplete stripe
  std::size_t pending_len_ = 0;  // bytes in pending_
};

}  // namespace reader::detail
