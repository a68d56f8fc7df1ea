// XXH64 (seed 0 by default), streaming: the datastore file checksum. A thin wrapper over the
// xxHash library (Debian's libxxhash-dev), so the datastore code hashes through one small
// type and the library's header stays out of ours.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

struct XXH64_state_s;  // xxhash.h's streaming state

namespace reader::detail {

class Xxh64 {
 public:
  explicit Xxh64(std::uint64_t seed = 0);  // throws std::bad_alloc if xxHash cannot allocate
  // Feeds bytes; any split of the same byte sequence gives the same digest.
  void update(const void* data, std::size_t len);
  // Hash of everything fed so far (does not reset the state).
  std::uint64_t digest() const;
  // One-shot convenience.
  static std::uint64_t hash(const void* data, std::size_t len, std::uint64_t seed = 0);

 private:
  struct Free {
    void operator()(XXH64_state_s* state) const;
  };
  std::unique_ptr<XXH64_state_s, Free> state_;  // xxHash's running state
};

}  // namespace reader::detail
