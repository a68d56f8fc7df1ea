// Reading a whole small text file (prompts, tree shapes, profiles), shared by the loaders
// and the CLI so that each says the same thing about a directory, an unreadable file or an
// endless one such as /dev/zero. Pipes (/dev/stdin) still read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

namespace reader {

inline constexpr std::size_t kMaxTextFileBytes = std::size_t{256} << 20;

// "256 MiB", "4 GiB": a limit as the messages below say it.
inline std::string size_in_words(std::uintmax_t bytes) {
  return bytes >= (std::uintmax_t{1} << 30) ? std::to_string(bytes >> 30) + " GiB"
                                            : std::to_string(bytes >> 20) + " MiB";
}

// The file's bytes, or nullopt with `problem` set to why, for a message "cannot read X: why"
// ("it is a directory", "no such file, or no permission", "it is larger than 256 MiB",
// "a read error"). Data files (corpora, prompt sets) pass a larger `max_bytes`.
inline std::optional<std::string> read_small_file(const std::filesystem::path& path,
                                                  std::string& problem,
                                                  std::uintmax_t max_bytes = kMaxTextFileBytes) {
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
    if (text.size() > max_bytes) {
      problem = "it is larger than " + size_in_words(max_bytes);
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
