// Strict int reads for the JSON file loaders (tree shapes, profiles). nlohmann's get<int>()
// converts any number, and converting a float outside int's range is undefined behaviour
// (found by fuzz/fuzz_profile: "version": 1e90).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace reader::detail {

// `v` as an int: an integer, or a float with a whole value (8.0), within int's range. Throws
// std::invalid_argument naming `what` for other numbers, nlohmann's type_error for non-numbers.
inline int json_int(const nlohmann::json& v, const std::string& what) {
  constexpr auto kMin = std::numeric_limits<int>::min();
  constexpr auto kMax = std::numeric_limits<int>::max();
  if (v.is_number_unsigned()) {
    if (v.get<std::uint64_t>() <= static_cast<std::uint64_t>(kMax)) return v.get<int>();
  } else if (v.is_number_integer()) {
    const std::int64_t i = v.get<std::int64_t>();
    if (i >= kMin && i <= kMax) return static_cast<int>(i);
  } else if (v.is_number_float()) {
    const double d = v.get<double>();
    if (d >= kMin && d <= kMax && d == std::floor(d)) return static_cast<int>(d);
  } else {
    return v.get<int>();  // throws type_error: "type must be number, but is ..."
  }
  throw std::invalid_argument(what + " must be an integer in " + std::to_string(kMin) + ".." +
                              std::to_string(kMax) + ", got " + v.dump());
}

}  // namespace reader::detail
