// Compares a speculative method's output with autoregressive decoding on the same
// prompt and options, and judges any mismatch (see README, "Losslessness and rounding").
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "model_fixture.h"
#include "reader/datastore.h"
#include "reader/methods.h"

namespace reader::test {

// Largest |a - b| between the logit rows the AR decode and a tree verification produce for
// the same prefix (measured up to 0.86 on SmolLM2 and 1.42 on Gemma 3): under sampling a
// mismatch is tolerated only when the two rows differ by less than this, i.e. by rounding, not by a
// different prefix.
inline constexpr float kKernelLogitNoise = 1.5f;

struct LosslessOutcome {
  bool exact = false;           // identical tokens, text and stop reason
  bool rows_identical = false;  // every logit row AR used is bitwise the speculative one
  bool tolerated = false;       // token mismatch explained by kernel rounding
  int first_diff = -1;          // first differing output position
  int first_row_diff = -1;      // first position whose logit rows differ (or one is missing)
  float top2_gap = 0;           // AR row's top-2 gap at first_diff
  float max_abs_diff = 0;       // max |AR row - verifier row| at first_diff
  std::string detail;           // for failure messages
  GenerationStats spec_stats;   // the speculative run's
};

// The model's default long-term datastore (the one setup builds), when present.
inline const Datastore* shared_datastore(const std::string& model_name) {
  static std::map<std::string, std::unique_ptr<Datastore>> cache;
  auto& slot = cache[model_name];
  if (!slot) {
    const std::filesystem::path p = default_datastore_path(test_model_path(model_name));
    if (std::filesystem::exists(p)) slot = std::make_unique<Datastore>(Datastore::open(p));
  }
  return slot.get();
}

inline LosslessOutcome compare_with_autoregressive(Model& m, Generator& ar, Generator& spec,
                                                   const Tokens& prompt, GenerationOptions opts) {
  std::map<int, std::vector<float>> ar_rows, spec_rows;
  auto recorder = [&](std::map<int, std::vector<float>>& rows) {
    return [&rows, &m](int pos, const float* l) { rows[pos].assign(l, l + m.n_vocab()); };
  };
  opts.on_logits = recorder(ar_rows);
  const GenerationResult a = ar.run(prompt, opts);
  opts.on_logits = recorder(spec_rows);
  const GenerationResult b = spec.run(prompt, opts);

  LosslessOutcome o;
  o.spec_stats = b.stats;
  o.exact = a.tokens == b.tokens && a.text == b.text && a.stop_reason == b.stop_reason;
  size_t i = 0;
  while (i < a.tokens.size() && i < b.tokens.size() && a.tokens[i] == b.tokens[i]) ++i;
  // Rows are comparable wherever both engines decoded the same prefix: every position AR
  // recorded when the tokens agree, up to the first differing one otherwise. The speculative
  // engine may record more (a drafted node past the last output position).
  const int last_comparable = o.exact ? std::numeric_limits<int>::max() : static_cast<int>(i);
  for (const auto& [pos, row] : ar_rows) {
    if (pos > last_comparable) break;
    const auto it = spec_rows.find(pos);
    if (it == spec_rows.end() || it->second.size() != row.size() ||
        std::memcmp(it->second.data(), row.data(), row.size() * sizeof(float)) != 0) {
      o.first_row_diff = pos;
      break;
    }
  }
  o.rows_identical = o.first_row_diff < 0;
  if (o.first_row_diff >= 0) {
    const auto it = spec_rows.find(o.first_row_diff);
    const auto& ra = ar_rows[o.first_row_diff];
    float d = it == spec_rows.end() ? INFINITY : 0.0f;
    for (size_t k = 0; it != spec_rows.end() && k < ra.size(); ++k)
      d = std::max(d, std::fabs(ra[k] - it->second[k]));
    o.detail = "logit rows differ at position " + std::to_string(o.first_row_diff) +
               " (max |dlogit| " + std::to_string(d) + ")";
  }
  if (o.exact) {
    o.tolerated = true;
    return o;
  }
  if (!o.detail.empty()) o.detail += "; ";
  o.first_diff = static_cast<int>(i);
  const auto& ra = ar_rows[o.first_diff];
  const auto& rb = spec_rows[o.first_diff];
  if (ra.empty() || rb.empty()) {
    o.detail += "no logits recorded at position " + std::to_string(i) + " (stop rule mismatch?)";
    return o;
  }
  o.top2_gap = top2_gap(ra.data(), m.n_vocab());
  for (size_t k = 0; k < ra.size(); ++k)
    o.max_abs_diff = std::max(o.max_abs_diff, std::fabs(ra[k] - rb[k]));
  // Each engine must have applied the policy to its own row: rule out engine bugs.
  Sampler s(opts.sampling);
  const Token want_a = i < a.tokens.size() ? a.tokens[i] : -1;
  const Token want_b = i < b.tokens.size() ? b.tokens[i] : -1;
  const Token pa = s.pick(ra.data(), m.n_vocab(), i), pb = s.pick(rb.data(), m.n_vocab(), i);
  const bool consistent = (want_a < 0 || pa == want_a) && (want_b < 0 || pb == want_b);
  // Greedy: a near-tie in the AR row, and the speculative row moved by rounding only (not a
  // different prefix). Sampling: the rows differ by rounding only.
  o.tolerated = consistent && o.max_abs_diff < kKernelLogitNoise &&
                (!opts.sampling.greedy() || o.top2_gap < kLogitTieEpsilon);
  o.detail += "first diff at " + std::to_string(i) + ": ar '" +
              (want_a >= 0 ? m.token_bytes(want_a) : "<end>") + "' vs spec '" +
              (want_b >= 0 ? m.token_bytes(want_b) : "<end>") + "', top2 gap " +
              std::to_string(o.top2_gap) + ", max |dlogit| " + std::to_string(o.max_abs_diff) +
              (consistent ? "" : ", POLICY INCONSISTENT");
  return o;
}

}  // namespace reader::test

#include "prompt_sets.h"

namespace reader::test {

// How a mismatch is judged: single-path verification must be bitwise exact; multi-branch
// trees (TreeShape::single_path = false) may differ where rounding explains it.
enum class Exactness { kBitwise, kRoundingTolerated };

// The rule for a method that verifies whole trees (or one path a step): bitwise wherever whole
// trees are (Model::trees_bitwise).
inline Exactness exactness_for(const Model& m, bool whole_trees) {
  return whole_trees && !m.trees_bitwise() ? Exactness::kRoundingTolerated : Exactness::kBitwise;
}

// Runs compare_with_autoregressive over `per_set` prompts of every shared prompt set, for
// greedy (seed -1) and each sampling seed; expects every run exact (or its mismatch
// tolerated) and prints the exact-match rate under `label`.
inline void check_lossless_over_sets(Model& m, Generator& ar, Generator& spec,
                                     const std::string& label, int per_set, int max_tokens,
                                     const std::vector<int>& seeds,
                                     Exactness rule = Exactness::kBitwise) {
  // A GPU's kernels compute a row differently in batches of other sizes: no single path is
  // bitwise there either (README, "GPU").
  if (m.options().gpu_layers != 0) rule = Exactness::kRoundingTolerated;
  int exact = 0, total = 0;
  for (const std::string& set : prompt_set_names()) {
    for (const PromptItem& item : load_prompt_set(set, default_data_dir(), per_set)) {
      const Tokens prompt = m.tokenize(m.apply_chat_template(item.user), true, true);
      for (int seed : seeds) {
        GenerationOptions opts;
        opts.max_tokens = max_tokens;
        if (seed >= 0) opts.sampling = {0.8f, 40, 0.95f, static_cast<uint64_t>(seed)};
        const LosslessOutcome o = compare_with_autoregressive(m, ar, spec, prompt, opts);
        ++total;
        exact += o.exact;
        // Bitwise: the same tokens from the same logit rows, bit for bit.
        const bool ok = rule == Exactness::kBitwise ? o.exact && o.rows_identical : o.tolerated;
        EXPECT_TRUE(ok) << item.id << " seed " << seed << ": " << o.detail;
        if (!ok || !o.exact)
          std::printf("  [%s] %s seed %d: %s\n", ok ? "tolerated" : "FAIL", item.id.c_str(), seed,
                      o.detail.c_str());
      }
    }
  }
  std::printf("%s: %d of %d runs identical (%.1f%%)\n", label.c_str(), exact, total,
              100.0 * exact / total);
}

}  // namespace reader::test
