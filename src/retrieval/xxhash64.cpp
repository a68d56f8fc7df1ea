#include "retrieval/xxhash64.h"

#include <xxhash.h>

#include <new>

namespace reader::detail {

void Xxh64::Free::operator()(XXH64_state_s* state) const { XXH64_freeState(state); }

Xxh64::Xxh64(std::uint64_t seed) : state_(XXH64_createState()) {
  if (!state_) throw std::bad_alloc();
  XXH64_reset(state_.get(), seed);
}

void Xxh64::update(const void* data, std::size_t len) {
  if (len > 0) XXH64_update(state_.get(), data, len);
}

std::uint64_t Xxh64::digest() const { return XXH64_digest(state_.get()); }

std::uint64_t Xxh64::hash(const void* data, std::size_t len, std::uint64_t seed) {
  return XXH64(data, len, seed);
}

}  // namespace reader::detail
