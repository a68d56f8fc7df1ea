// Long-term datastore benchmarks: construction speed on one core (SA-IS vs libdivsufsort),
// file bytes/token, peak build memory, open cost with and without checksum verification, and
// lookup latencies (next_token_counts, extend_path, search_path to depth 16).
//
// The corpus is synthetic but repetitive like model output: Zipf-distributed tokens over a
// 49152-token vocabulary, about half of all tokens copied from earlier spans, documents of
// 50-1000 tokens. It is generated once per process; READER_BENCH_DS_TOKENS sets its size
// (default 10M). Builds run in a forked child so peak memory (VmHWM growth over the child's
// starting RSS) covers the builder alone, including its copy of the documents.
#include <benchmark/benchmark.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "reader/datastore.h"
#include "reader/search.h"

namespace reader {
namespace {

constexpr std::uint32_t kVocab = 49152;
constexpr int kContextTokens = 32;

// splitmix64: fast, deterministic, good enough for synthetic data.
struct Rng {
  std::uint64_t state;  // advanced by every draw
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  std::uint64_t below(std::uint64_t n) { return next() % n; }
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
};

// Zipf(s = 1.1) over ranks, mapped to token ids through a fixed random permutation.
class ZipfTokens {
 public:
  ZipfTokens() : cdf_(kVocab), ids_(kVocab) {
    double sum = 0;
    for (std::uint32_t r = 0; r < kVocab; ++r) sum += 1.0 / std::pow(r + 1.0, 1.1);
    double acc = 0;
    for (std::uint32_t r = 0; r < kVocab; ++r) {
      acc += 1.0 / std::pow(r + 1.0, 1.1) / sum;
      cdf_[r] = acc;
    }
    std::iota(ids_.begin(), ids_.end(), 0);
    Rng rng{12345};
    for (std::uint32_t i = kVocab - 1; i > 0; --i) std::swap(ids_[i], ids_[rng.below(i + 1)]);
  }
  Token draw(Rng& rng) const {
    const auto it = std::lower_bound(cdf_.begin(), cdf_.end(), rng.unit());
    return ids_[std::min<std::size_t>(static_cast<std::size_t>(it - cdf_.begin()), kVocab - 1)];
  }

 private:
  std::vector<double> cdf_;  // cumulative probability by rank
  Tokens ids_;               // token id of each rank
};

// Documents stored back to back: document i is tokens[starts[i], starts[i + 1]).
struct Corpus {
  Tokens tokens;                    // all document tokens, no separators
  std::vector<std::size_t> starts;  // document offsets, plus a final end offset
  std::size_t documents() const { return starts.size() - 1; }
  TokenSpan document(std::size_t i) const {
    return TokenSpan(tokens).subspan(starts[i], starts[i + 1] - starts[i]);
  }
};

std::size_t corpus_tokens() {
  const char* env = std::getenv("READER_BENCH_DS_TOKENS");
  return env != nullptr ? static_cast<std::size_t>(std::strtoull(env, nullptr, 10)) : 10'000'000;
}

const Corpus& corpus() {
  static const Corpus c = [] {
    const std::size_t target = corpus_tokens();
    const ZipfTokens zipf;
    Rng rng{42};
    Corpus out;
    out.tokens.reserve(target + 1000);
    while (out.tokens.size() < target) {
      out.starts.push_back(out.tokens.size());
      const std::size_t len = 50 + rng.below(951);
      const std::size_t end = out.tokens.size() + len;
      while (out.tokens.size() < end) {
        if (out.tokens.size() > 10'000 && rng.below(100) < 12) {
          // Copy an earlier span: about half of all tokens end up repeated text.
          const std::size_t span =
              std::min<std::size_t>(4 + rng.below(61), end - out.tokens.size());
          const std::size_t from = rng.below(out.tokens.size() - span);
          for (std::size_t k = 0; k < span; ++k) out.tokens.push_back(out.tokens[from + k]);
        } else {
          const std::size_t run = std::min<std::size_t>(1 + rng.below(8), end - out.tokens.size());
          for (std::size_t k = 0; k < run; ++k) out.tokens.push_back(zipf.draw(rng));
        }
      }
    }
    out.starts.push_back(out.tokens.size());
    return out;
  }();
  return c;
}

DatastoreMeta bench_meta() { return {kVocab, 0xbe4c4, "bench-zipf"}; }

std::filesystem::path temp_path(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         ("reader_bench_ds_" + std::to_string(::getpid()) + "_" + name);
}

// Removes a file at process exit.
struct FileGuard {
  std::filesystem::path path;  // file to remove
  ~FileGuard() {
    std::error_code ec;
    std::filesystem::remove(path, ec);
  }
};

// The datastore the lookup benchmarks query: built once, in process.
const std::filesystem::path& datastore_path() {
  static const FileGuard guard = [] {
    const Corpus& c = corpus();
    DatastoreBuilder builder;
    builder.reserve(c.tokens.size() + c.documents());
    for (std::size_t i = 0; i < c.documents(); ++i) builder.add_document(c.document(i));
    FileGuard g{temp_path("lookup")};
    builder.write(g.path, bench_meta());
    return g;
  }();
  return guard.path;
}

// With the count memo (the default), or without it: every lookup pays its full cost.
const Datastore& datastore(bool cache) {
  static const Datastore cached = Datastore::open(datastore_path());
  static const Datastore uncached = [] {
    OpenOptions options;
    options.count_cache_bytes = 0;
    return Datastore::open(datastore_path(), options);
  }();
  return cache ? cached : uncached;
}

long proc_status_kb(const char* field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  const std::size_t len = std::strlen(field);
  while (std::getline(in, line)) {
    if (line.compare(0, len, field) == 0 && line.size() > len && line[len] == ':') {
      return std::strtol(line.c_str() + len + 1, nullptr, 10);
    }
  }
  return -1;
}

double cpu_seconds() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  auto secs = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec * 1e-6; };
  return secs(u.ru_utime) + secs(u.ru_stime);
}

// What a forked build child reports back through a pipe.
struct ChildReport {
  double write_seconds;      // DatastoreBuilder::write wall time
  double write_cpu_seconds;  // and its CPU time (user + system), robust to a busy machine
  double sa_seconds;         // of which suffix-array construction
  double file_bytes;         // size of the datastore file
  double tokens;             // stored tokens (separators included)
  double peak_extra_kb;      // VmHWM at the end minus VmRSS at the start
  char error[200];           // non-empty on failure
};

ChildReport build_in_child(SuffixArrayAlgorithm algorithm, bool reserve) {
  const Corpus& c = corpus();  // generated before fork: shared, not counted
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error("pipe failed");
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    ChildReport r{};
    try {
      if (FILE* f = std::fopen("/proc/self/clear_refs", "w")) {  // reset VmHWM to VmRSS
        std::fputs("5", f);
        std::fclose(f);
      }
      const long start_kb = proc_status_kb("VmRSS");
      BuilderOptions options;
      options.algorithm = algorithm;
      DatastoreBuilder builder(options);
      if (reserve) builder.reserve(c.tokens.size() + c.documents());
      for (std::size_t i = 0; i < c.documents(); ++i) builder.add_document(c.document(i));
      const FileGuard out{temp_path("build")};
      const double cpu_start = cpu_seconds();
      const BuildSummary s = builder.write(out.path, bench_meta());
      r.write_cpu_seconds = cpu_seconds() - cpu_start;
      r.write_seconds = s.total_seconds;
      r.sa_seconds = s.suffix_array_seconds;
      r.file_bytes = static_cast<double>(s.file_bytes);
      r.tokens = static_cast<double>(s.token_count);
      r.peak_extra_kb = static_cast<double>(proc_status_kb("VmHWM") - start_kb);
    } catch (const std::exception& e) {
      std::snprintf(r.error, sizeof r.error, "%s", e.what());
    }
    const ssize_t written = ::write(fds[1], &r, sizeof r);
    ::_exit(written == static_cast<ssize_t>(sizeof r) ? 0 : 1);
  }
  ::close(fds[1]);
  ChildReport r{};
  const ssize_t got = ::read(fds[0], &r, sizeof r);
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (got != static_cast<ssize_t>(sizeof r)) {
    std::snprintf(r.error, sizeof r.error, "build child died (status %d)", status);
  }
  return r;
}

// Args: {algorithm (0 = SA-IS, 1 = divsufsort), reserve (0/1)}.
void BM_BuildDatastore(benchmark::State& state) {
  const auto algorithm =
      state.range(0) == 0 ? SuffixArrayAlgorithm::kSais : SuffixArrayAlgorithm::kDivsufsort;
  if (algorithm == SuffixArrayAlgorithm::kDivsufsort && !divsufsort_available()) {
    state.SkipWithError("libdivsufsort not compiled in");
    return;
  }
  corpus();
  ChildReport r{};
  for (auto _ : state) {
    r = build_in_child(algorithm, state.range(1) != 0);
    if (r.error[0] != '\0') {
      state.SkipWithError(r.error);
      return;
    }
    state.SetIterationTime(r.write_seconds);
  }
  state.counters["tokens"] = r.tokens;
  state.counters["sa_s"] = r.sa_seconds;
  state.counters["sa_Mtok_per_s"] = r.tokens / r.sa_seconds / 1e6;
  state.counters["write_s"] = r.write_seconds;
  state.counters["write_cpu_s"] = r.write_cpu_seconds;
  state.counters["file_B_per_tok"] = r.file_bytes / r.tokens;
  state.counters["peak_B_per_tok"] = r.peak_extra_kb * 1024.0 / r.tokens;
}
BENCHMARK(BM_BuildDatastore)
    ->ArgNames({"divsufsort", "reserve"})
    ->ArgsProduct({{0, 1}, {0, 1}})
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kSecond);

// Arg: verify checksum (0/1). The file is in page cache (just written), so this is the CPU
// cost of hashing plus mapping; a cold open adds reading the file from disk.
void BM_Open(benchmark::State& state) {
  const auto& path = datastore_path();
  OpenOptions options;
  options.verify_checksum = state.range(0) != 0;
  std::size_t bytes = 0;
  for (auto _ : state) {
    const Datastore ds = Datastore::open(path, options);
    bytes = ds.memory_bytes();
    benchmark::DoNotOptimize(bytes);
  }
  state.counters["file_MB"] = static_cast<double>(bytes) / 1e6;
  state.counters["GB_per_s"] = benchmark::Counter(static_cast<double>(bytes) / 1e9,
                                                  benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_Open)->ArgName("verify")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// Query contexts: 32 tokens cut from random documents ("corpus", so the datastore holds them)
// or freshly drawn Zipf text ("novel", matching only short suffixes).
const std::vector<Tokens>& contexts(bool novel) {
  static const auto make = [](bool fresh) {
    std::vector<Tokens> out;
    const Corpus& c = corpus();
    Rng rng{fresh ? 777u : 555u};
    const ZipfTokens zipf;
    for (int i = 0; i < 4096; ++i) {
      Tokens ctx;
      if (fresh) {
        for (int k = 0; k < kContextTokens; ++k) ctx.push_back(zipf.draw(rng));
      } else {
        const TokenSpan doc = c.document(rng.below(c.documents()));
        const std::size_t cut = 1 + rng.below(doc.size() - 1);
        const std::size_t from = cut > kContextTokens ? cut - kContextTokens : 0;
        ctx.assign(doc.begin() + static_cast<long>(from), doc.begin() + static_cast<long>(cut));
      }
      out.push_back(std::move(ctx));
    }
    return out;
  };
  static const std::vector<Tokens> corpus_contexts = make(false);
  static const std::vector<Tokens> novel_contexts = make(true);
  return novel ? novel_contexts : corpus_contexts;
}

// Runs `query` once per iteration over the contexts, reporting latency percentiles.
template <typename Query>
void timed_queries(benchmark::State& state, const std::vector<Tokens>& ctxs, Query query) {
  std::vector<double> micros;
  micros.reserve(1 << 16);
  std::size_t i = 0;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    query(ctxs[i++ % ctxs.size()]);
    const auto t1 = std::chrono::steady_clock::now();
    if (micros.size() < micros.capacity()) {
      micros.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    }
  }
  if (micros.empty()) return;
  std::sort(micros.begin(), micros.end());
  auto pct = [&](double p) { return micros[static_cast<std::size_t>(p * (micros.size() - 1))]; };
  state.counters["p50_us"] = pct(0.50);
  state.counters["p90_us"] = pct(0.90);
  state.counters["p99_us"] = pct(0.99);
}

// Args: {max_suffix_len, novel contexts (0/1), count memo (0/1)}.
void BM_NextTokenCounts(benchmark::State& state) {
  const Datastore& ds = datastore(state.range(2) != 0);
  const int max_len = static_cast<int>(state.range(0));
  const auto& ctxs = contexts(state.range(1) != 0);
  std::uint64_t matched = 0, sampled = 0, queries = 0;
  for (const auto& ctx : ctxs) {
    const NextTokens next = ds.next_tokens(ctx, max_len);
    matched += static_cast<std::uint64_t>(next.match_len);
    sampled += next.sampled ? 1 : 0;
    ++queries;
  }
  timed_queries(state, ctxs, [&](const Tokens& ctx) {
    auto counts = ds.next_token_counts(ctx, max_len);
    benchmark::DoNotOptimize(counts.data());
  });
  state.counters["mean_match_len"] = static_cast<double>(matched) / static_cast<double>(queries);
  state.counters["sampled_frac"] = static_cast<double>(sampled) / static_cast<double>(queries);
}
BENCHMARK(BM_NextTokenCounts)
    ->ArgNames({"L", "novel", "memo"})
    ->ArgsProduct({{4, 8, 16}, {0, 1}, {0, 1}})
    ->Unit(benchmark::kMicrosecond);

// Args: {max_suffix_len, novel, memo}: extend_path to depth 16 (reuses each step's range).
void BM_ExtendPath16(benchmark::State& state) {
  const Datastore& ds = datastore(state.range(2) != 0);
  const int max_len = static_cast<int>(state.range(0));
  timed_queries(state, contexts(state.range(1) != 0), [&](const Tokens& ctx) {
    auto path = ds.extend_path(ctx, max_len, 16);
    benchmark::DoNotOptimize(path.data());
  });
}
BENCHMARK(BM_ExtendPath16)
    ->ArgNames({"L", "novel", "memo"})
    ->ArgsProduct({{8, 16}, {0, 1}, {0, 1}})
    ->Unit(benchmark::kMicrosecond);

// Args: {max_suffix_len, novel, memo}: search_path (paper, SearchPath) to depth 16 with the
// datastore as its only source, i.e. 16 independent next_token_counts calls.
void BM_SearchPath16(benchmark::State& state) {
  const Datastore& ds = datastore(state.range(2) != 0);
  SearchOptions opts;
  opts.max_suffix_len = static_cast<int>(state.range(0));
  opts.depth = 16;
  const NextTokenSource* sources[] = {&ds};
  timed_queries(state, contexts(state.range(1) != 0), [&](const Tokens& ctx) {
    auto path = search_path(ctx, opts, sources);
    benchmark::DoNotOptimize(path.data());
  });
}
BENCHMARK(BM_SearchPath16)
    ->ArgNames({"L", "novel", "memo"})
    ->ArgsProduct({{8, 16}, {0, 1}, {0, 1}})
    ->Unit(benchmark::kMicrosecond);

// Longest prefix of a 32-token needle (the self-repetition metric's query).
void BM_LongestMatchFrom(benchmark::State& state) {
  const Datastore& ds = datastore(false);
  timed_queries(state, contexts(state.range(0) != 0), [&](const Tokens& needle) {
    benchmark::DoNotOptimize(ds.longest_match_from(needle));
  });
}
BENCHMARK(BM_LongestMatchFrom)->ArgName("novel")->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace reader
