// AtomicFile: POSIX write-to-temporary, fsync, rename.
#include "retrieval/atomic_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace reader::detail {
namespace {

[[noreturn]] void fail(const std::string& what, const std::filesystem::path& path) {
  const int err = errno;  // read before anything else can overwrite it
  throw std::runtime_error(fmt::format("{} {}: {}", what, path.string(), std::strerror(err)));
}

}  // namespace

AtomicFile::AtomicFile(std::filesystem::path target)
    : target_(std::move(target)), temp_(target_.string() + ".tmp-" + std::to_string(::getpid())) {
  fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) fail("cannot create", temp_);
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_) ::unlink(temp_.c_str());
}

void AtomicFile::append(const void* data, std::size_t len) {
  overwrite(data, len, size_);
  size_ += len;
}

void AtomicFile::overwrite(const void* data, std::size_t len, std::uint64_t offset) {
  const auto* p = static_cast<const char*>(data);
  while (len > 0) {
    const ssize_t n = ::pwrite(fd_, p, len, static_cast<off_t>(offset));
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("cannot write", temp_);
    }
    p += n;
    len -= static_cast<std::size_t>(n);
    offset += static_cast<std::uint64_t>(n);
  }
}

void AtomicFile::commit() {
  if (::fsync(fd_) != 0) fail("cannot fsync", temp_);
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) fail("cannot close", temp_);
  if (::rename(temp_.c_str(), target_.c_str()) != 0) fail("cannot rename into", target_);
  committed_ = true;
  std::filesystem::path dir = target_.parent_path();
  if (dir.empty()) dir = ".";
  const int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd >= 0) {
    ::fsync(dir_fd);  // best effort: some filesystems refuse directory fsync
    ::close(dir_fd);
  }
}

}  // namespace reader::detail
