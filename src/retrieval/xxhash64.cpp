// XXH64 as specified by the xxHash project (https://github.com/Cyan4973/xxHash,
// doc/xxhash_spec.md).
#include "retrieval/xxhash64.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace reader::detail {
namespace {

constexpr std::uint64_t kP1 = 11400714785074694791ull;
constexpr std::uint64_t kP2 = 14029467366897019727ull;
constexpr std::uint64_t kP3 = 1609587929392839161ull;
constexpr std::uint64_t kP4 = 9650029242287828579ull;
constexpr std::uint64_t kP5 = 2870177450012600261ull;

static_assert(std::endian::native == std::endian::little, "XXH64 reads little-endian words");

std::uint64_t read64(const unsigned char* p) {
  std::uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

std::uint32_t read32(const unsigned char* p) {
  std::uint32_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

std::uint64_t lane_round(std::uint64_t acc, std::uint64_t input) {
  acc += input * kP2;
  return std::rotl(acc, 31) * kP1;
}

std::uint64_t merge_round(std::uint64_t acc, std::uint64_t lane) {
  acc ^= lane_round(0, lane);
  return acc * kP1 + kP4;
}

}  // namespace

Xxh64::Xxh64(std::uint64_t seed)
    : seed_(seed), lanes_{seed + kP1 + kP2, seed + kP2, seed, seed - kP1}, pending_{} {}

void Xxh64::update(const void* data, std::size_t len) {
  const auto* p = static_cast<const unsigned char*>(data);
  total_len_ += len;
  if (pending_len_ > 0) {
    const std::size_t take = std::min(len, sizeof pending_ - pending_len_);
    std::memcpy(pending_ + pending_len_, p, take);
    pending_len_ += take;
    p += take;
    len -= take;
    if (pending_len_ < sizeof pending_) return;
    for (int i = 0; i < 4; ++i) lanes_[i] = lane_round(lanes_[i], read64(pending_ + 8 * i));
    pending_len_ = 0;
  }
  std::uint64_t v0 = lanes_[0], v1 = lanes_[1], v2 = lanes_[2], v3 = lanes_[3];
  for (; len >= 32; p += 32, len -= 32) {
    v0 = lane_round(v0, read64(p));
    v1 = lane_round(v1, read64(p + 8));
    v2 = lane_round(v2, read64(p + 16));
    v3 = lane_round(v3, read64(p + 24));
  }
  lanes_[0] = v0;
  lanes_[1] = v1;
  lanes_[2] = v2;
  lanes_[3] = v3;
  std::memcpy(pending_, p, len);
  pending_len_ = len;
}

std::uint64_t Xxh64::digest() const {
  std::uint64_t h;
  if (total_len_ >= 32) {
    h = std::rotl(lanes_[0], 1) + std::rotl(lanes_[1], 7) + std::rotl(lanes_[2], 12) +
        std::rotl(lanes_[3], 18);
    for (std::uint64_t lane : lanes_) h = merge_round(h, lane);
  } else {
    h = seed_ + kP5;
  }
  h += total_len_;
  const unsigned char* p = pending_;
  std::size_t len = pending_len_;
  for (; len >= 8; p += 8, len -= 8) h = std::rotl(h ^ lane_round(0, read64(p)), 27) * kP1 + kP4;
  if (len >= 4) {
    h = std::rotl(h ^ (std::uint64_t{read32(p)} * kP1), 23) * kP2 + kP3;
    p += 4;
    len -= 4;
  }
  for (; len > 0; ++p, --len) h = std::rotl(h ^ (*p * kP5), 11) * kP1;
  h ^= h >> 33;
  h *= kP2;
  h ^= h >> 29;
  h *= kP3;
  h ^= h >> 32;
  return h;
}

std::uint64_t Xxh64::hash(const void* data, std::size_t len, std::uint64_t seed) {
  Xxh64 state(seed);
  state.update(data, len);
  return state.digest();
}

}  // namespace reader::detail
