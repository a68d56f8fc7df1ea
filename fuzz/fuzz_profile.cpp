// Fuzz target: load_profile (reader/profile.h), which reads models/<model>.profile.json.
// The input is written to a temporary file; loading must succeed or throw ProfileError. A
// loaded profile must be usable (its cost model evaluated where the drafter evaluates it)
// and survive a save/load round trip unchanged.
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "reader/profile.h"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

// A per-process scratch file, in memory when /dev/shm exists; removed when the fuzzer exits
// normally.
struct Scratch {
  std::filesystem::path path;  // the file
  explicit Scratch(const char* suffix) {
    const std::filesystem::path dir =
        std::filesystem::exists("/dev/shm") ? "/dev/shm" : std::filesystem::temp_directory_path();
    path = dir / ("reader-fuzz-profile-" + std::to_string(::getpid()) + suffix);
  }
  ~Scratch() {
    std::error_code ec;
    std::filesystem::remove(path, ec);
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const Scratch in_file(".json");
  static const Scratch out_file("-out.json");
  const std::filesystem::path& in_path = in_file.path;
  const std::filesystem::path& out_path = out_file.path;
  {
    std::ofstream out(in_path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  reader::Profile p;
  try {
    p = reader::load_profile(in_path);
  } catch (const reader::ProfileError&) {
    return 0;
  }
  for (int context : {0, 1, 300, 4096, 1 << 20})
    for (int n : {1, 2, 7, 64, 512}) {
      const double c = p.cost.at(context)(n);
      (void)c;
    }
  const std::string json = reader::profile_to_json(p);
  reader::save_profile(p, out_path);
  const reader::Profile again = reader::load_profile(out_path);
  check(reader::profile_to_json(again) == json);
  return 0;
}
