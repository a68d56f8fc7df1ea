#include "engine/batch_policy.h"

#include <algorithm>
#include <utility>

namespace reader {

double split_step_cost(std::vector<int> lengths, const PassCost& cost) {
  // lengths[i] counts down as passes take id i's tokens.
  double total = 0;
  for (size_t first = 0; first < lengths.size();) {
    if (lengths[first] <= 0) {
      ++first;
      continue;
    }
    size_t end = first;  // the run of consecutive ids with tokens left
    int take = lengths[first];
    while (end < lengths.size() && lengths[end] > 0) take = std::min(take, lengths[end++]);
    total += cost(static_cast<int>(end - first), take);
    for (size_t i = first; i < end; ++i) lengths[i] -= take;
  }
  return total;
}

namespace {

// The candidates trim_drafts weighs, each scored by `objective`; the best one (all zeros
// unless something beats it).
template <class Objective>
std::vector<int> best_candidate(const std::vector<std::vector<double>>& a, size_t longest,
                                const Objective& objective) {
  const size_t n_seq = a.size();
  std::vector<int> best(n_seq, 0);
  double best_value = objective(best);
  // Candidates 1: a common cap on draft length (even drafts share their passes).
  std::vector<int> keep(n_seq);
  for (size_t cap = 1; cap <= longest; ++cap) {
    for (size_t s = 0; s < n_seq; ++s) keep[s] = static_cast<int>(std::min(cap, a[s].size()));
    if (const double v = objective(keep); v > best_value) best_value = v, best = keep;
  }
  // Candidates 2: the most likely tokens first, whatever sequence they belong to.
  std::vector<std::pair<double, size_t>> nodes;  // (alpha, sequence)
  for (size_t s = 0; s < n_seq; ++s)
    for (double x : a[s]) nodes.emplace_back(x, s);
  std::stable_sort(nodes.begin(), nodes.end(),
                   [](const auto& x, const auto& y) { return x.first > y.first; });
  std::fill(keep.begin(), keep.end(), 0);
  for (const auto& [alpha, s] : nodes) {
    keep[s]++;
    if (const double v = objective(keep); v > best_value) best_value = v, best = keep;
  }
  return best;
}

}  // namespace

std::vector<int> trim_drafts(const std::vector<std::vector<double>>& alphas,
                             const std::vector<Lane>& lanes, const PassCost& cost) {
  const size_t n_seq = alphas.size();
  // Alpha clamped non-increasing along each chain, so any prefix by alpha is a valid draft.
  std::vector<std::vector<double>> a(n_seq);
  size_t longest = 0;
  for (size_t s = 0; s < n_seq; ++s) {
    double running = 1.0;
    for (double x : alphas[s]) {
      running = std::min(running, std::max(0.0, x));
      a[s].push_back(running);
    }
    longest = std::max(longest, a[s].size());
  }
  const auto gain = [&](const std::vector<int>& keep) {
    double g = 0;
    for (size_t s = 0; s < n_seq; ++s) {
      g += 1.0;
      for (int i = 0; i < keep[s]; ++i) g += a[s][static_cast<size_t>(i)];
    }
    return g;
  };
  // The decode's lengths in id order, with or without the prompt chunks.
  const auto step_cost = [&](const std::vector<int>& keep, bool with_chunks) {
    std::vector<int> lengths;
    lengths.reserve(lanes.size());
    for (const Lane& l : lanes)
      lengths.push_back(l.draft >= 0  ? keep[static_cast<size_t>(l.draft)] + 1
                        : with_chunks ? l.prompt_tokens
                                      : 0);
    return split_step_cost(std::move(lengths), cost);
  };
  const bool chunks = std::any_of(lanes.begin(), lanes.end(),
                                  [](const Lane& l) { return l.draft < 0 && l.prompt_tokens > 0; });
  const auto ratio = [&](const std::vector<int>& keep) {
    return gain(keep) / step_cost(keep, false);
  };
  if (!chunks) return best_candidate(a, longest, ratio);
  // Prompt chunks in the decode are paid for whatever is drafted, so the step's own ratio
  // would take any draft cheaper than the step's average token, prompt tokens included: in a
  // step carrying 390 prompt tokens, 6 sequences drafted 71 tokens and 14 were accepted
  // (session 32). A draft here must earn what the same cost earns in these sequences' steps
  // without the chunks: their best ratio alone.
  const double rate = ratio(best_candidate(a, longest, ratio));
  const double base = step_cost(std::vector<int>(n_seq, 0), true);
  return best_candidate(a, longest, [&](const std::vector<int>& keep) {
    return gain(keep) - rate * (step_cost(keep, true) - base);
  });
}

}  // namespace reader
