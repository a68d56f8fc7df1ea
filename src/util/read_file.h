// Reading a whole small text file (prompts, tree shapes, profiles), shared by the loaders
// and the CLI so that each says the same thing about a directory, an unreadable file or an
// endless one such as /dev/zero. Pipes (/dev/stdin) still read.
#pragma once

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

namespace reader {

inline constexpr std::size_t kMaxTextFileBytes = std::size_t{256} << 20;

// The file's bytes, or nullopt with `problem` set to why, for a message "cannot read X: why"
// ("it is a directory", "no such file, or no permission", "it is larger than 256 MiB",
// "a read error").
inline std::optional<std::string> read_small_file(const std::filesystem::path& path,
                                                  std::string& problem) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    problem = "it is a directory";
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    problem = "no such file, or no permission";
    return std::nullopt;
  }
  std::string text;
  char buf[1 << 16];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    text.append(buf, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxTextFileBytes) {
      problem = "it is larger than 256 MiB";
      return std::nullopt;
    }
  }
  if (in.bad()) {
    problem = "a read error";
    return std::nullopt;
  }
  return text;
}

}  // namespace reader
