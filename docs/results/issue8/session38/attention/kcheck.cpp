// The current kernel against session 22's, bit for bit: random K, V, queries and masks (prefix,
// random gaps with nonzero values, rows with nothing visible, no mask), head sizes 64 and 256,
// 1 to 300 keys, 1 to 6 rows, each case run with all rows together and with each row alone.
#include <cstdio>
#include <cstring>
#include <random>
#include "kernels.h"

int main() {
  std::mt19937 rng(7);
  std::normal_distribution<float> normal;
  long cases = 0, mismatches = 0;
  for (int it = 0; it < 3000; ++it) {
    const int D = it % 3 == 0 ? 256 : 64, heads = 1 + int(rng() % 3);
    const int n_kv = 1 + int(rng() % 300), R = 1 + int(rng() % 6);
    const size_t row = size_t(heads) * D;
    std::vector<ggml_fp16_t> K(row * n_kv), V(row * n_kv), mask(size_t(R) * n_kv);
    for (auto& x : K) x = _cvtss_sh(2 * normal(rng), 0);
    for (auto& x : V) x = _cvtss_sh(normal(rng), 0);
    std::vector<float> Q(size_t(R) * D);
    for (auto& x : Q) x = normal(rng);
    const int kind = int(rng() % 4);  // prefix, gaps, some rows empty, no mask
    for (int r = 0; r < R; ++r) {
      const int limit = int(rng() % (n_kv + 1));
      for (int j = 0; j < n_kv; ++j) {
        const bool seen = kind == 0 ? j <= limit : kind == 1 ? rng() % 3 != 0 : kind == 2 ? r % 2 == 0 && j < limit : true;
        mask[size_t(r) * n_kv + j] = _cvtss_sh(seen ? (kind == 1 ? 0.1f * normal(rng) : 0.0f) : -INFINITY, 0);
      }
    }
    const int h = int(rng() % heads);
    const char* kb = reinterpret_cast<const char*>(K.data() + h * D);
    const char* vb = reinterpret_cast<const char*>(V.data() + h * D);
    std::vector<float> want(size_t(R) * D), got(size_t(R) * D), S(size_t(6) * n_kv);
    Scratch scratch;
    scratch.S.resize(size_t(6) * n_kv);
    scratch.K.resize(16 * size_t(D));
    scratch.live.resize((n_kv + 15) / 16);
    Row rows[6];
    auto set_rows = [&](std::vector<float>& o) {
      for (int r = 0; r < R; ++r) rows[r] = {&Q[size_t(r) * D], kind == 3 ? nullptr : &mask[size_t(r) * n_kv], &o[size_t(r) * D]};
    };
#define BY_ROWS(CALL) \
  switch (R) { case 1: CALL(1); break; case 2: CALL(2); break; case 3: CALL(3); break; case 4: CALL(4); break; case 5: CALL(5); break; default: CALL(6); }
#define OLD(RR) attend_rows_old<RR>(rows, kb, row * 2, vb, row * 2, n_kv, D, D, 0.125f, S.data())
#define NEW(RR) attend_rows<RR>(rows, kb, row * 2, vb, row * 2, n_kv, D, D, 0.125f, scratch)
    set_rows(want);
    BY_ROWS(OLD)
    for (int alone = 0; alone < 2; ++alone) {
      set_rows(got);
      if (alone)
        for (int r = 0; r < R; ++r) attend_rows<1>(&rows[r], kb, row * 2, vb, row * 2, n_kv, D, D, 0.125f, scratch);
      else
        BY_ROWS(NEW)
      ++cases;
      if (std::memcmp(want.data(), got.data(), want.size() * sizeof(float)) != 0) {
        if (mismatches < 5) std::printf("case %d (rows %s): head %d, %d keys, %d rows, masks %d differ\n", it, alone ? "alone" : "together", D, n_kv, R, kind);
        ++mismatches;
      }
    }
  }
  std::printf("%ld cases, %ld with any bit different\n", cases, mismatches);
  return mismatches != 0;
}
