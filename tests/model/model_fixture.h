// Shared fixtures for tests that run the real models fetched by scripts/setup.sh.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <string>

#include "reader/model.h"

namespace reader::test {

// The two architectures every model test runs on.
inline std::vector<std::string> test_model_names() { return {"smollm2", "gemma3"}; }

inline std::filesystem::path test_model_path(const std::string& name) {
  return name == "gemma3" ? gemma3_model_path() : default_model_path();
}

// $READER_GPU_LAYERS, as the CLI reads it: shared models then run on the GPU (README, "GPU").
inline int test_gpu_layers() {
  const char* v = std::getenv("READER_GPU_LAYERS");
  return v && *v ? std::atoi(v) : 0;
}

// Whether a tree's rows must equal its branches decoded alone bit for bit: where the patched
// CPU kernels (scripts/patches/) do the work. llama.cpp's own kernels, the GPU's included,
// compute a row differently in a batch of another size.
inline bool rows_are_bitwise(const Model& m) { return m.rows_batch_invariant(); }

// One loaded model per (name, n_seq_max, n_ctx, padded), shared across tests of a binary:
// loading is slow. padded: ModelOptions::pad_decodes.
inline Model& shared_model(const std::string& name, int n_seq_max = 16, int n_ctx = 2048,
                           bool padded = false) {
  static std::map<std::string, std::unique_ptr<Model>> cache;
  const std::string key = name + "/" + std::to_string(n_seq_max) + "/" + std::to_string(n_ctx) +
                          (padded ? "/padded" : "");
  auto& slot = cache[key];
  if (!slot) {
    ModelOptions o;
    o.path = test_model_path(name);
    o.n_seq_max = n_seq_max;
    o.n_ctx = n_ctx;
    o.offload(test_gpu_layers());
    if (padded) o.pad_decodes = true;
    slot = Model::load(o);
  }
  return *slot;
}

// Largest logit minus the runner-up: how close a row is to an argmax tie.
inline float top2_gap(const float* logits, int n) {
  float a = -1e30f, b = -1e30f;
  for (int i = 0; i < n; ++i) {
    if (logits[i] > a) {
      b = a;
      a = logits[i];
    } else if (logits[i] > b) {
      b = logits[i];
    }
  }
  return a - b;
}

// A tree node off the leftmost path is computed with its siblings' cells masked in between
// its ancestors, so llama.cpp's SIMD sums round differently than in the plain decode; through
// 8-bit activations that grows to logit differences of up to ~0.8. A greedy mismatch is
// tolerated only where the autoregressive top-2 gap is below this (README, "Losslessness
// and rounding"; largest gap seen at a mismatch so far: 0.163).
inline constexpr float kLogitTieEpsilon = 0.25f;

}  // namespace reader::test
