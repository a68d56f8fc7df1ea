// Datastore: mapping, validation on open, and the plain accessors.
#include "reader/datastore.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "retrieval/count_cache.h"
#include "retrieval/datastore_format.h"
#include "retrieval/datastore_search.h"
#include "retrieval/xxhash64.h"

namespace reader {
namespace {

[[noreturn]] void fail_errno(const std::string& what, const std::filesystem::path& path) {
  const int err = errno;  // read before anything else can overwrite it
  throw std::runtime_error(
      fmt::format("datastore {}: {}: {}", path.string(), what, std::strerror(err)));
}

// Owns a descriptor for the duration of open().
struct Fd {
  int fd = -1;  // the descriptor, -1 when none
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

Datastore Datastore::open(const std::filesystem::path& path, const OpenOptions& options) {
  Fd file;
  file.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (file.fd < 0) fail_errno("cannot open", path);
  struct stat st {};
  if (::fstat(file.fd, &st) != 0) fail_errno("cannot stat", path);
  const auto size = static_cast<std::uint64_t>(st.st_size);
  if (size < detail::kDatastoreHeaderSize) {
    // Too short to map usefully: read what there is so the header check reports it.
    std::uint8_t head[detail::kDatastoreHeaderSize] = {};
    const ssize_t got = ::pread(file.fd, head, static_cast<std::size_t>(size), 0);
    if (got < 0) fail_errno("cannot read", path);
    detail::decode_and_validate_header(head, static_cast<std::uint64_t>(got), path);
  }

  Datastore ds;
  ds.path_ = path;
  ds.options_ = options;
  int flags = MAP_SHARED;
  if (options.populate) flags |= MAP_POPULATE;
  void* map = ::mmap(nullptr, static_cast<std::size_t>(size), PROT_READ, flags, file.fd, 0);
  if (map == MAP_FAILED) fail_errno("cannot mmap", path);
  ds.map_ = static_cast<const std::uint8_t*>(map);
  ds.map_size_ = static_cast<std::size_t>(size);

  // From here `ds` unmaps on any throw.
  const detail::DatastoreHeader h = detail::decode_and_validate_header(ds.map_, size, path);
  if (options.verify_checksum) {
    const std::uint64_t actual = detail::Xxh64::hash(
        ds.map_ + h.header_size, static_cast<std::size_t>(size - h.header_size));
    if (actual != h.body_checksum) {
      throw std::runtime_error(fmt::format(
          "datastore {}: checksum mismatch, the file is corrupt (header says {:016x}, data "
          "hashes to {:016x})",
          path.string(), h.body_checksum, actual));
    }
  }
  ds.meta_.vocab_size = h.vocab_size;
  ds.meta_.tokenizer_fingerprint = h.tokenizer_fingerprint;
  ds.meta_.tokenizer_name = h.tokenizer_name;
  ds.tokens_ = ds.map_ + h.tokens_offset;
  ds.suffixes_ = reinterpret_cast<const std::uint32_t*>(ds.map_ + h.suffix_array_offset);
  ds.first_index_ = reinterpret_cast<const std::uint32_t*>(ds.map_ + h.first_index_offset);
  ds.token_count_ = h.token_count;
  ds.document_count_ = h.document_count;
  ds.token_width_ = h.token_width;
  static std::atomic<std::uint64_t> next_id{1};
  ds.id_ = next_id.fetch_add(1, std::memory_order_relaxed);
  if (options.count_cache_bytes > 0) {
    ds.cache_ = std::make_unique<detail::CountCache>(options.count_cache_bytes);
  }
  // O(1) invariants the search relies on even without checksum verification.
  if (ds.token_at(ds.token_count_ - 1) != ds.separator() || ds.first_index_[0] != 0 ||
      ds.first_index_[std::size_t{h.vocab_size} + 1] != ds.token_count_) {
    throw std::runtime_error(
        fmt::format("datastore {}: corrupt: sections violate basic invariants", path.string()));
  }
  return ds;
}

Datastore::Datastore(Datastore&& other) noexcept { *this = std::move(other); }

Datastore& Datastore::operator=(Datastore&& other) noexcept {
  if (this != &other) {
    unmap();
    path_ = std::move(other.path_);
    meta_ = std::move(other.meta_);
    options_ = other.options_;
    map_ = std::exchange(other.map_, nullptr);
    map_size_ = std::exchange(other.map_size_, 0);
    tokens_ = std::exchange(other.tokens_, nullptr);
    suffixes_ = std::exchange(other.suffixes_, nullptr);
    first_index_ = std::exchange(other.first_index_, nullptr);
    token_count_ = std::exchange(other.token_count_, 0);
    document_count_ = std::exchange(other.document_count_, 0);
    token_width_ = std::exchange(other.token_width_, 0);
    cache_ = std::move(other.cache_);
    id_ = std::exchange(other.id_, 0);
  }
  return *this;
}

Datastore::~Datastore() { unmap(); }

void Datastore::unmap() noexcept {
  if (map_ != nullptr) ::munmap(const_cast<std::uint8_t*>(map_), map_size_);
  map_ = nullptr;
  map_size_ = 0;
}

detail::DatastoreView Datastore::view() const {
  return {tokens_,          suffixes_,    first_index_, token_count_,
          meta_.vocab_size, token_width_, cache_.get()};
}

void Datastore::check_tokenizer(std::uint64_t fingerprint, std::uint32_t vocab_size) const {
  if (fingerprint == meta_.tokenizer_fingerprint && vocab_size == meta_.vocab_size) return;
  throw std::runtime_error(fmt::format(
      "datastore {} was built for tokenizer '{}' (fingerprint {:016x}, vocab {}), but the model's "
      "tokenizer has fingerprint {:016x}, vocab {}; rebuild the datastore with this tokenizer",
      path_.string(), meta_.tokenizer_name, meta_.tokenizer_fingerprint, meta_.vocab_size,
      fingerprint, vocab_size));
}

Token Datastore::token_at(std::uint64_t pos) const {
  if (pos >= token_count_) throw std::out_of_range("datastore token position out of range");
  return static_cast<Token>(
      detail::with_search(view(), [pos](const auto& search) { return search.token(pos); }));
}

std::uint64_t Datastore::suffix_at(std::uint64_t rank) const {
  if (rank >= token_count_) throw std::out_of_range("datastore suffix rank out of range");
  return suffixes_[rank];
}

}  // namespace reader
