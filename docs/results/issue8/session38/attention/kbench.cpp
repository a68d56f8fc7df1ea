// SmolLM2's attention in one decode, alone: 30 layers, 3 KV heads of 64 values, 3 query heads
// each, n tokens over n_kv cached keys of which VIS are visible (default all), rows split among
// two threads as the op splits them. Alternates session 22's kernel and the current one and
// prints the medians and the largest difference of their outputs (0: the same bits).
//   kbench N_TOKENS N_KV [ROUNDS=40]   (env VIS: visible keys, the rest masked as padding;
//   BALANCED=1: another split of the rows, not shipped)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <thread>
#include "kernels.h"

constexpr int kLayers = 30, kHeadsKV = 3, kGroup = 3, kDim = 64, kThreads = 2;

template <class T>
struct Aligned {  // ggml's buffers are aligned; std::vector's are not
  using value_type = T;
  Aligned() = default;
  template <class U> Aligned(const Aligned<U>&) {}
  T* allocate(size_t n) { return static_cast<T*>(std::aligned_alloc(256, (n * sizeof(T) + 255) / 256 * 256)); }
  void deallocate(T* p, size_t) { std::free(p); }
  bool operator==(const Aligned&) const { return true; }
};

int main(int argc, char** argv) {
  if (argc < 3) { std::fprintf(stderr, "usage: kbench N_TOKENS N_KV [ROUNDS]\n"); return 2; }
  const int n = std::atoi(argv[1]), n_kv = std::atoi(argv[2]), rounds = argc > 3 ? std::atoi(argv[3]) : 40;
  const int vis = std::getenv("VIS") ? std::atoi(std::getenv("VIS")) : n_kv;
  std::mt19937 rng(1);
  std::normal_distribution<float> normal;
  const size_t row = kHeadsKV * kDim;  // f16 values per key, all heads
  std::vector<std::vector<ggml_fp16_t, Aligned<ggml_fp16_t>>> K(kLayers), V(kLayers);
  for (int l = 0; l < kLayers; ++l) {
    K[l].resize(row * n_kv);
    V[l].resize(row * n_kv);
    for (auto& x : K[l]) x = _cvtss_sh(normal(rng), 0);
    for (auto& x : V[l]) x = _cvtss_sh(normal(rng), 0);
  }
  std::vector<float> Q(size_t(kLayers) * n * kHeadsKV * kGroup * kDim);
  for (auto& x : Q) x = normal(rng);
  std::vector<ggml_fp16_t> mask(size_t(n) * n_kv);  // token t sees keys up to vis - n + t
  for (int t = 0; t < n; ++t)
    for (int j = 0; j < n_kv; ++j) mask[size_t(t) * n_kv + j] = _cvtss_sh(j <= vis - n + t ? 0.0f : -INFINITY, 0);
  std::vector<float> out(Q.size());
  // The op's split: R rows of one KV head per item, items shared among the threads.
  const int rows_h = kGroup * n, total = rows_h * kHeadsKV;
  // BALANCED=1: a head's rows in equal groups of up to 6, at least two items a thread (not shipped).
  const int groups_balanced = std::max((rows_h + 5) / 6, (2 * kThreads + kHeadsKV - 1) / kHeadsKV);
  const int R = std::getenv("BALANCED") ? (rows_h + groups_balanced - 1) / groups_balanced
                                        : std::clamp((total + 4 * kThreads - 1) / (4 * kThreads), 1, 6);
  const int groups_h = (rows_h + R - 1) / R, n_items = kHeadsKV * groups_h;
  bool use_old = false;
  auto work = [&](int ith) {
    thread_local Scratch scratch;
    thread_local std::vector<float> S;
    scratch.S.resize(size_t(R) * n_kv);
    scratch.K.resize(16 * kDim);
    scratch.live.resize((n_kv + 15) / 16);
    S.resize(size_t(R) * n_kv);
    for (int l = 0; l < kLayers; ++l)
      for (int item = ith; item < n_items; item += kThreads) {
        const int g = item % groups_h, head_kv = item / groups_h;
        Row rows[6];
        const int t0 = g * R, t1 = std::min(rows_h, t0 + R);
        for (int t = t0; t < t1; ++t) {
          const int head = head_kv * kGroup + t / n, token = t % n;
          const size_t at = ((size_t(l) * n + token) * kHeadsKV * kGroup + head) * kDim;
          rows[t - t0] = {&Q[at], &mask[size_t(token) * n_kv], &out[at]};
        }
        const char* kb = reinterpret_cast<const char*>(K[l].data() + head_kv * kDim);
        const char* vb = reinterpret_cast<const char*>(V[l].data() + head_kv * kDim);
        const size_t nb = row * 2;
#define ATTEND(RR)                                                                                \
  if (use_old) attend_rows_old<RR>(rows, kb, nb, vb, nb, n_kv, kDim, kDim, 0.125f, S.data());     \
  else attend_rows<RR>(rows, kb, nb, vb, nb, n_kv, kDim, kDim, 0.125f, scratch);
        switch (t1 - t0) {
          case 1: ATTEND(1) break;
          case 2: ATTEND(2) break;
          case 3: ATTEND(3) break;
          case 4: ATTEND(4) break;
          case 5: ATTEND(5) break;
          default: ATTEND(6)
        }
      }
  };
  std::vector<double> ms[2];
  std::vector<float> result[2];
  for (int r = 0; r < rounds; ++r)
    for (int arm = 0; arm < 2; ++arm) {
      use_old = arm == 0;
      const auto start = std::chrono::steady_clock::now();
      std::thread helper(work, 1);
      work(0);
      helper.join();
      ms[arm].push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
      result[arm] = out;
    }
  double diff = 0;
  for (size_t i = 0; i < out.size(); ++i) diff = std::max(diff, double(std::fabs(result[0][i] - result[1][i])));
  for (auto& v : ms) std::sort(v.begin(), v.end());
  std::printf("%d tokens, %d keys (%d visible), %d rows an item: session 22 %.3f ms, now %.3f ms (%.3f); largest difference %.1e\n",
              n, n_kv, vis, R, ms[0][rounds / 2], ms[1][rounds / 2], ms[1][rounds / 2] / ms[0][rounds / 2], diff);
}
