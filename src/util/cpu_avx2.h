// Whether this CPU runs AVX2: the row scans (sampling.cpp) and the sampled pick's weights
// (softmax_weights.cpp) take their AVX2 paths only then. x86-64 with GCC or Clang; false
// elsewhere, where only the scalar paths are built.
#pragma once

namespace reader {

inline bool cpu_has_avx2() {
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool yes = [] {
    __builtin_cpu_init();  // callers may run before the constructors that would do it
    return __builtin_cpu_supports("avx2") != 0;
  }();
  return yes;
#else
  return false;
#endif
}

}  // namespace reader
