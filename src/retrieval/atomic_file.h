// A file written under a temporary name and renamed into place only on commit(), so a failed
// or interrupted writer never leaves a partial file at the target path.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>

namespace reader::detail {

class AtomicFile {
 public:
  // Creates (truncating) `target` + ".tmp-<pid>". Throws std::runtime_error on failure.
  explicit AtomicFile(std::filesystem::path target);
  // Removes the temporary file unless commit() succeeded.
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  // Appends bytes at the end.
  void append(const void* data, std::size_t len);
  // Overwrites bytes already written (used for the header, finalised last).
  void overwrite(const void* data, std::size_t len, std::uint64_t offset);
  std::uint64_t size() const { return size_; }
  const std::filesystem::path& temp_path() const { return temp_; }

  // fsyncs the data, renames the temporary over the target and fsyncs the directory, so the
  // rename itself survives a crash.
  void commit();

 private:
  std::filesystem::path target_;  // final name
  std::filesystem::path temp_;    // name while writing
  int fd_ = -1;                   // open descriptor of temp_, -1 once closed
  std::uint64_t size_ = 0;        // bytes appended so far
  bool committed_ = false;        // true once renamed into place
};

}  // namespace reader::detail
