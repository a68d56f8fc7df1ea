// Small non-cryptographic hashes shared by the model (tokenizer fingerprint), the
// datastore (file checksum) and the sampler (counter-based random numbers).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace reader {

// 64-bit FNV-1a: streaming, byte-order independent, good enough to detect corruption
// and to tell two vocabularies apart.
class Fnv1a64 {
 public:
  void add(const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i) {
      h_ ^= p[i];
      h_ *= 0x100000001b3ULL;
    }
  }
  template <typename T>
  void add_value(const T& v) {
    add(&v, sizeof v);
  }
  std::uint64_t value() const { return h_; }

 private:
  std::uint64_t h_ = 0xcbf29ce484222325ULL;
};

// SplitMix64 finalizer: a bijective mix of 64 bits, the core of our counter-based RNG.
constexpr std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace reader
