// ShortTermTrie and SearchPath micro-benchmarks on a synthetic 100k-token history that looks
// like model output: Zipf-distributed tokens (vocab ~49k) interleaved with copies of earlier
// spans, so the trie sees both long repeats and a heavy-tailed fanout.
#include <benchmark/benchmark.h>

#include <cmath>
#include <random>

#include "reader/repetition.h"
#include "reader/search.h"
#include "reader/trie.h"

namespace reader {
namespace {

constexpr int kVocab = 49152;
constexpr std::size_t kHistory = 100000;

Tokens synthetic_stream(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  // Zipf(1.1) over the vocabulary via inverse CDF on precomputed weights.
  std::vector<double> cdf(kVocab);
  double total = 0;
  for (int i = 0; i < kVocab; ++i)
    cdf[static_cast<std::size_t>(i)] = total += 1.0 / std::pow(i + 1, 1.1);
  std::uniform_real_distribution<double> u(0, total);
  std::geometric_distribution<int> span_len(1.0 / 12);
  Tokens out;
  out.reserve(n);
  while (out.size() < n) {
    if (out.size() > 64 && rng() % 10 < 3) {  // ~30% of steps copy an earlier span
      const std::size_t from = rng() % (out.size() - 1);
      const std::size_t len = 2 + static_cast<std::size_t>(span_len(rng));
      for (std::size_t i = 0; i < len && out.size() < n; ++i) out.push_back(out[from + i]);
    } else {
      out.push_back(
          static_cast<Token>(std::lower_bound(cdf.begin(), cdf.end(), u(rng)) - cdf.begin()));
    }
  }
  return out;
}

const Tokens& history() {
  static const Tokens stream = synthetic_stream(kHistory, 42);
  return stream;
}

// The history appended in one call, with and without a compaction afterwards.
const ShortTermTrie& history_trie(bool compacted) {
  static const ShortTermTrie plain = [] {
    ShortTermTrie t({.max_depth = 16, .auto_compact = false});
    t.append(history());
    return t;
  }();
  static const ShortTermTrie packed = [] {
    ShortTermTrie t({.max_depth = 16});
    t.append(history());
    t.compact();
    return t;
  }();
  return compacted ? packed : plain;
}

// Query contexts: prefixes of the history ending at random positions.
std::vector<std::size_t> query_ends(std::size_t count) {
  std::mt19937 rng(7);
  std::vector<std::size_t> ends(count);
  for (std::size_t& e : ends) e = 64 + rng() % (kHistory - 64);
  return ends;
}

void BM_TrieLookupBestPath(benchmark::State& state) {
  const ShortTermTrie& trie = history_trie(state.range(0) != 0);
  const Tokens& h = history();
  const std::vector<std::size_t> ends = query_ends(4096);
  std::size_t q = 0;
  std::size_t drafted = 0;
  for (auto _ : state) {
    const TokenSpan ctx(h.data(), ends[q++ & 4095]);
    const Tokens path = trie.best_path(ctx, 8, 16);
    drafted += path.size();
    benchmark::DoNotOptimize(path.data());
  }
  state.counters["avg_path_len"] =
      benchmark::Counter(static_cast<double>(drafted), benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_TrieLookupBestPath)
    ->ArgName("compacted")
    ->Arg(0)
    ->Arg(1)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true);

// A decoding step as the engine runs it: append the accepted token, then draft 16 tokens from
// the end of the history (whose nodes the append just touched). compacted:1 = auto_compact, so
// the 100k-token bulk append ends with a compaction.
void BM_TrieDecodeStep(benchmark::State& state) {
  ShortTermTrie trie({.max_depth = 16, .auto_compact = state.range(0) != 0});
  Tokens h = history();
  trie.append(h);
  // The same generator run longer: the continuation keeps copying spans of the history.
  const Tokens longer = synthetic_stream(kHistory + (1 << 16), 42);
  const Tokens more(longer.begin() + kHistory, longer.end());
  h.reserve(h.size() + more.size());
  std::size_t i = 0;
  std::size_t drafted = 0;
  for (auto _ : state) {
    const Token t = more[i++ & 0xffff];
    trie.append(t);
    h.push_back(t);
    const Tokens path = trie.best_path(h, 8, 16);
    drafted += path.size();
    benchmark::DoNotOptimize(path.data());
  }
  state.counters["avg_path_len"] =
      benchmark::Counter(static_cast<double>(drafted), benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_TrieDecodeStep)
    ->ArgName("compacted")
    ->Arg(0)
    ->Arg(1)
    ->Iterations(50000)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true);

void BM_TrieNextTokens(benchmark::State& state) {
  const ShortTermTrie& trie = history_trie(true);
  const Tokens& h = history();
  const std::vector<std::size_t> ends = query_ends(4096);
  std::vector<TokenCount> out;
  std::size_t q = 0;
  for (auto _ : state) {
    out.clear();
    trie.append_next_token_counts(TokenSpan(h.data(), ends[q++ & 4095]), 8, out);
    benchmark::DoNotOptimize(out.data());
  }
}
BENCHMARK(BM_TrieNextTokens)->Repetitions(5)->ReportAggregatesOnly(true);

void BM_TrieAppend(benchmark::State& state) {
  const Tokens& h = history();
  for (auto _ : state) {
    // auto_compact:0 measures insertion alone, 1 includes the compaction that ends append().
    ShortTermTrie trie(
        {.max_depth = static_cast<int>(state.range(0)), .auto_compact = state.range(1) != 0});
    trie.append(h);
    benchmark::DoNotOptimize(trie.node_count());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * h.size()));
}
BENCHMARK(BM_TrieAppend)
    ->ArgNames({"D", "auto_compact"})
    ->Args({16, 0})
    ->Args({16, 1})
    ->Args({8, 0})
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(3)
    ->ReportAggregatesOnly(true);

// Steady-state decoding: one token at a time onto an existing 100k history.
void BM_TrieAppendOneToken(benchmark::State& state) {
  ShortTermTrie trie({.max_depth = 16, .auto_compact = false});
  const Tokens& h = history();
  trie.append(h);
  const Tokens more = synthetic_stream(1 << 16, 43);
  std::size_t i = 0;
  for (auto _ : state) trie.append(more[i++ & 0xffff]);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_TrieAppendOneToken);

void BM_SearchPathTrieOnly(benchmark::State& state) {
  const ShortTermTrie& trie = history_trie(state.range(0) != 0);
  const Tokens& h = history();
  const std::vector<std::size_t> ends = query_ends(4096);
  const NextTokenSource* sources[] = {&trie};
  const SearchOptions opts{.max_suffix_len = 8, .depth = 16};
  std::size_t q = 0;
  std::size_t drafted = 0;
  for (auto _ : state) {
    const Tokens path = search_path(TokenSpan(h.data(), ends[q++ & 4095]), opts, sources);
    drafted += path.size();
    benchmark::DoNotOptimize(path.data());
  }
  state.counters["avg_path_len"] =
      benchmark::Counter(static_cast<double>(drafted), benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_SearchPathTrieOnly)
    ->ArgName("compacted")
    ->Arg(0)
    ->Arg(1)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true);

// compact() on a freshly built trie (random layout: the realistic cost) and again on an already
// compacted one.
void BM_TrieCompact(benchmark::State& state) {
  ShortTermTrie trie({.max_depth = 16});
  trie.append(history());
  if (state.range(0) != 0) trie.compact();
  for (auto _ : state) {
    if (state.range(0) == 0) {
      state.PauseTiming();
      trie.clear();
      trie.append(history());
      state.ResumeTiming();
    }
    trie.compact();
  }
  state.counters["nodes"] = static_cast<double>(trie.node_count());
  state.counters["MiB"] = static_cast<double>(trie.memory_bytes()) / (1 << 20);
}
BENCHMARK(BM_TrieCompact)->ArgName("again")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_SelfRepetition(benchmark::State& state) {
  const Tokens& h = history();
  const TokenSpan prompt(h.data(), h.size() / 2);
  const TokenSpan response(h.data() + h.size() / 2, h.size() / 2);
  for (auto _ : state) benchmark::DoNotOptimize(self_repetition(prompt, response).metric);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * h.size()));
}
BENCHMARK(BM_SelfRepetition)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace reader
