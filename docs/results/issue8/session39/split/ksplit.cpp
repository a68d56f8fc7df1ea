// Shipped row split against an even one, the same (current) kernel: attention alone for one decode.
//   ksplit N_TOKENS N_KV ROUNDS   env MODEL=gemma (18 layers, 1 KV head of 256, 4 query heads), VIS
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <thread>
#include "kernels.h"
template <class T> struct Aligned { using value_type = T; Aligned() = default; template <class U> Aligned(const Aligned<U>&) {}
  T* allocate(size_t n) { return static_cast<T*>(std::aligned_alloc(256, (n * sizeof(T) + 255) / 256 * 256)); }
  void deallocate(T* p, size_t) { std::free(p); } bool operator==(const Aligned&) const { return true; } };
int main(int argc, char** argv) {
  const bool gemma = std::getenv("MODEL") && !std::strcmp(std::getenv("MODEL"), "gemma");
  const int kLayers = gemma ? 18 : 30, kHeadsKV = gemma ? 1 : 3, kGroup = gemma ? 4 : 3, kDim = gemma ? 256 : 64, kThreads = 2;
  const int n = std::atoi(argv[1]), n_kv = std::atoi(argv[2]), rounds = std::atoi(argv[3]);
  const int vis = std::getenv("VIS") ? std::atoi(std::getenv("VIS")) : n_kv;
  std::mt19937 rng(1); std::normal_distribution<float> normal;
  const size_t row = size_t(kHeadsKV) * kDim;
  std::vector<std::vector<ggml_fp16_t, Aligned<ggml_fp16_t>>> K(kLayers), V(kLayers);
  for (int l = 0; l < kLayers; ++l) { K[l].resize(row * n_kv); V[l].resize(row * n_kv);
    for (auto& x : K[l]) x = _cvtss_sh(normal(rng), 0); for (auto& x : V[l]) x = _cvtss_sh(normal(rng), 0); }
  std::vector<float> Q(size_t(kLayers) * n * kHeadsKV * kGroup * kDim); for (auto& x : Q) x = normal(rng);
  std::vector<ggml_fp16_t> mask(size_t(n) * n_kv);
  for (int t = 0; t < n; ++t) for (int j = 0; j < n_kv; ++j) mask[size_t(t) * n_kv + j] = _cvtss_sh(j <= vis - n + t ? 0.0f : -INFINITY, 0);
  std::vector<float> out(Q.size());
  const int rows_h = kGroup * n, total = rows_h * kHeadsKV;
  const int R_ship = std::clamp((total + 4 * kThreads - 1) / (4 * kThreads), 1, 6);
  const int groups_ship = (rows_h + R_ship - 1) / R_ship;
  const int groups_even = std::max((rows_h + 5) / 6, (2 * kThreads + kHeadsKV - 1) / kHeadsKV);
  int arm = 0; std::atomic<int> next{0};
  auto work = [&](int ith) {
    thread_local Scratch scratch;
    scratch.S.resize(size_t(6) * n_kv); scratch.K.resize(16 * kDim); scratch.live.resize((n_kv + 15) / 16);
    const int groups_h = arm == 0 ? groups_ship : groups_even, n_items = kHeadsKV * groups_h;
    for (int l = 0; l < kLayers; ++l) {
      for (int item = ith; item < n_items; item = kThreads + next.fetch_add(1) ) {
        const int g = item % groups_h, head_kv = item / groups_h;
        const int t0 = arm == 0 ? g * R_ship : int(int64_t(g) * rows_h / groups_h);
        const int t1 = arm == 0 ? std::min(rows_h, t0 + R_ship) : int(int64_t(g + 1) * rows_h / groups_h);
        Row rows[6];
        for (int t = t0; t < t1; ++t) {
          const int head = head_kv * kGroup + t / n, token = t % n;
          const size_t at = ((size_t(l) * n + token) * kHeadsKV * kGroup + head) * kDim;
          rows[t - t0] = {&Q[at], &mask[size_t(token) * n_kv], &out[at]};
        }
        const char* kb = reinterpret_cast<const char*>(K[l].data() + head_kv * kDim);
        const char* vb = reinterpret_cast<const char*>(V[l].data() + head_kv * kDim);
        const size_t nb = row * 2;
#define ATTEND(RR) attend_rows<RR>(rows, kb, nb, vb, nb, n_kv, kDim, kDim, 1.0f / std::sqrt(float(kDim)), scratch);
        switch (t1 - t0) { case 1: ATTEND(1) break; case 2: ATTEND(2) break; case 3: ATTEND(3) break;
          case 4: ATTEND(4) break; case 5: ATTEND(5) break; default: ATTEND(6) }
      }
      // per-layer barrier, as the graph has
      static std::atomic<int> bar{0}; static std::atomic<int> gen{0};
      int g0 = gen.load(); if (bar.fetch_add(1) == kThreads - 1) { bar = 0; next = 0; gen.fetch_add(1); } else while (gen.load() == g0) {}
    }
  };
  std::vector<double> ms[2]; std::vector<float> result[2];
  for (int r = 0; r < rounds; ++r) for (arm = 0; arm < 2; ++arm) {
    next = 0;
    const auto start = std::chrono::steady_clock::now();
    std::thread helper(work, 1); work(0); helper.join();
    ms[arm].push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    result[arm] = out;
  }
  const int cmp = std::memcmp(result[0].data(), result[1].data(), out.size() * sizeof(float));
  for (auto& v : ms) std::sort(v.begin(), v.end());
  std::printf("%s %2d tokens, %d keys (%d visible): shipped %d groups of <=%d %.3f ms, even %d groups %.3f ms (%.3f); bits %s\n",
              gemma ? "gemma" : "smol", n, n_kv, vis, groups_ship, R_ship, ms[0][rounds / 2], groups_even, ms[1][rounds / 2],
              ms[1][rounds / 2] / ms[0][rounds / 2], cmp ? "DIFFER" : "same");
}
