// The scans of a logit row that every verified token pays: argmax (the greedy pick), the
// recycling speculator's top-k and a sampled pick, over a SmolLM2-sized vocabulary
// (src/verify/sampling.cpp).
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "reader/sampling.h"

namespace reader {
namespace {

constexpr int kVocab = 49152;

const std::vector<float>& logit_row() {
  static const std::vector<float> row = [] {
    std::mt19937 rng(3);
    std::normal_distribution<float> logit(0.0f, 3.0f);
    std::vector<float> r(kVocab);
    for (float& x : r) x = logit(rng);
    return r;
  }();
  return row;
}

void BM_Argmax(benchmark::State& state) {
  const std::vector<float>& row = logit_row();
  for (auto _ : state) benchmark::DoNotOptimize(argmax(row.data(), kVocab));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * kVocab);
}
BENCHMARK(BM_Argmax)->Unit(benchmark::kMicrosecond);

void BM_TopK(benchmark::State& state) {
  const std::vector<float>& row = logit_row();
  std::vector<std::pair<float, Token>> best;
  for (auto _ : state) {
    top_k_tokens(row.data(), kVocab, static_cast<int>(state.range(0)), best);
    benchmark::DoNotOptimize(best.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * kVocab);
}
BENCHMARK(BM_TopK)->ArgName("k")->Arg(4)->Arg(8)->Unit(benchmark::kMicrosecond);

// A sampled pick at T = 0.8 (top-k and top-p off, as `reader bench --temp 0.8`): every token
// within 40 temperatures of the best one gets a softmax weight, then the seeded draw walks
// them in id order.
void BM_SampledPick(benchmark::State& state) {
  const std::vector<float>& row = logit_row();
  Sampler sampler({0.8f, 0, 1.0f, 1});
  std::uint64_t position = 0;
  for (auto _ : state) benchmark::DoNotOptimize(sampler.pick(row.data(), kVocab, position++));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * kVocab);
}
BENCHMARK(BM_SampledPick)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace reader
