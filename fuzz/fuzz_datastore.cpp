// Fuzz target: Datastore::open (reader/datastore.h) on arbitrary files, then the deep
// check_integrity, then lookups. Opening, checking and lookups must succeed or throw
// std::runtime_error (the library's error type), never crash; on a datastore that passed
// check_integrity, lookups must succeed and agree with a fresh search.
//
// Input: byte 0 picks a mode and the open options, the rest is mode-specific:
//   mode 0  the rest is the file as is (magic, version, truncation, header checksum)
//   mode 1  the rest is the file with both checksums recomputed (layout, O(1) invariants)
//   mode 2  b[0] picks vocab_size, b[1] counts document bytes (0xFF ends a document, other
//           bytes are tokens mod vocab_size); a real datastore is built from them, then each
//           following 3 bytes (offset lo, offset hi, xor) flip bits anywhere in the file;
//           checksums are recomputed when bit 3 of byte 0 is set
// The last 32 input bytes also serve as lookup contexts.
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "reader/datastore.h"
#include "retrieval/datastore_format.h"
#include "retrieval/xxhash64.h"

namespace {

namespace fs = std::filesystem;
using reader::Datastore;
using reader::Token;
using reader::Tokens;
using Bytes = std::vector<std::uint8_t>;

void check(bool ok) {
  if (!ok) std::abort();
}

// A per-process scratch file, in memory when /dev/shm exists (the builder fsyncs); removed
// when the fuzzer exits normally.
struct Scratch {
  fs::path path;  // the file
  Scratch() {
    const fs::path dir = fs::exists("/dev/shm") ? fs::path("/dev/shm") : fs::temp_directory_path();
    path = dir / ("reader-fuzz-datastore-" + std::to_string(::getpid()) + ".rds");
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove(path, ec);
  }
};

void write_file(const fs::path& path, const Bytes& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

Bytes read_file(const fs::path& path) {
  Bytes bytes(fs::file_size(path));
  std::ifstream in(path, std::ios::binary);
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return bytes;
}

// Recomputes the body and header checksums of a file long enough to have a header.
void fix_checksums(Bytes& file) {
  using namespace reader::detail;
  if (file.size() < kDatastoreHeaderSize) return;
  const std::uint64_t body =
      Xxh64::hash(file.data() + kDatastoreHeaderSize, file.size() - kDatastoreHeaderSize);
  std::memcpy(file.data() + kOffBodyChecksum, &body, sizeof body);
  const std::uint64_t header = Xxh64::hash(file.data(), kOffHeaderChecksum);
  std::memcpy(file.data() + kOffHeaderChecksum, &header, sizeof header);
}

// Mode 2: a real datastore from the input's documents, then bit flips. False when the input
// holds no document.
bool build_and_corrupt(const std::uint8_t* b, std::size_t n, const fs::path& path, bool fix,
                       Bytes& file) {
  if (n < 2) return false;
  const std::uint32_t vocab =
      b[0] < 250 ? 1u + b[0] : 1u + static_cast<std::uint32_t>(b[0] - 249) * 13000u;
  const std::size_t doc_bytes = std::min<std::size_t>(b[1], n - 2);
  reader::DatastoreBuilder builder;
  Tokens doc;
  for (std::size_t i = 0; i < doc_bytes; ++i) {
    if (b[2 + i] == 0xFF) {
      builder.add_document(doc);
      doc.clear();
    } else {
      doc.push_back(static_cast<Token>(b[2 + i] % vocab));
    }
  }
  builder.add_document(doc);
  if (builder.document_count() == 0) return false;
  builder.write(path, {vocab, 42, "fuzz"});
  file = read_file(path);
  for (std::size_t i = 2 + doc_bytes; i + 3 <= n; i += 3) {
    const std::size_t off = (b[i] | (std::size_t{b[i + 1]} << 8)) % file.size();
    file[off] ^= b[i + 2];
  }
  if (fix) fix_checksums(file);
  return true;
}

// Lookups. On a datastore that passed check_integrity (`intact`) they must agree with a fresh
// search and be in range; on one that did not they may only throw std::runtime_error
// ("datastore corrupt: ..."), never read out of bounds.
void exercise(const Datastore& ds, const fs::path& path, const std::uint8_t* b, std::size_t n,
              bool intact) {
  const std::uint64_t count = ds.token_count();
  for (std::uint64_t i = 0; i < count; ++i) {
    const Token t = ds.token_at(i);
    const std::uint64_t s = ds.suffix_at(i);
    if (intact) check(t >= 0 && t <= ds.separator() && s < count);
  }
  // Context tokens from the input tail: mostly real ids, some -1, separator and beyond.
  Tokens context;
  const std::size_t tail = std::min<std::size_t>(n, 32);
  const std::uint32_t span = std::min<std::uint32_t>(ds.vocab_size(), 253) + 3;
  for (std::size_t i = n - tail; i < n; ++i) context.push_back(static_cast<Token>(b[i] % span) - 1);
  const Datastore fresh = Datastore::open(path, {.verify_checksum = false});
  for (int max_len : {1, 3, 8, 64}) {
    for (std::size_t k = 0; k <= context.size(); ++k) {
      const reader::TokenSpan prefix(context.data(), k);
      const reader::SuffixRange r = ds.match(prefix, max_len);  // incremental after the first
      (void)fresh.match({}, max_len);                           // defeats fresh's memo
      const reader::SuffixRange again = fresh.match(prefix, max_len);
      const reader::NextTokens next = ds.next_tokens(prefix, max_len);
      const Tokens path_tokens = ds.extend_path(prefix, max_len, 8);
      if (!intact) continue;
      check(r == again);
      check(r.length <= max_len && r.hi <= count && r.lo <= r.hi);
      for (std::size_t i = 0; i < next.counts.size(); ++i) {
        check(next.counts[i].token >= 0 &&
              next.counts[i].token < static_cast<Token>(ds.vocab_size()));
        if (i > 0) check(next.counts[i - 1].count >= next.counts[i].count);
      }
      check(path_tokens.size() <= 8);
    }
  }
  Tokens real;
  for (Token t : context)
    if (t >= 0 && t < static_cast<Token>(ds.vocab_size())) real.push_back(t);
  const std::size_t longest = ds.longest_match_from(real);
  if (intact) check(longest <= real.size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const Scratch scratch;
  const fs::path& path = scratch.path;
  if (size < 1) return 0;
  const std::uint8_t control = data[0];
  const std::uint8_t* b = data + 1;
  const std::size_t n = size - 1;
  Bytes file;
  switch (control % 3) {
    case 0:
      file.assign(b, b + n);
      break;
    case 1:
      file.assign(b, b + n);
      fix_checksums(file);
      break;
    default:
      if (!build_and_corrupt(b, n, path, (control & 8) != 0, file)) return 0;
      break;
  }
  write_file(path, file);
  reader::OpenOptions options;
  options.verify_checksum = (control & 4) == 0;
  if (control & 16) options.sample_cap = 4;
  if (control & 32) options.count_cache_bytes = 0;
  std::optional<Datastore> ds;
  try {
    ds.emplace(Datastore::open(path, options));
  } catch (const std::runtime_error&) {
    return 0;
  }
  bool intact = true;
  try {
    ds->check_integrity();
  } catch (const std::runtime_error&) {
    intact = false;
  }
  if (intact) {
    exercise(*ds, path, b, n, true);
  } else {
    try {
      exercise(*ds, path, b, n, false);
    } catch (const std::runtime_error&) {
    }
  }
  return 0;
}
