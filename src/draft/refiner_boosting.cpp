// fit_refiner (acceptance_refiner.h): gradient-boosted trees of the log loss, grown level by
// level from histograms of binned features, as XGBoost's "hist" method does. Offline, on
// session 44's decision trace, such trees (depth 3, 150 x 0.1) weighed 2.3% more tokens per unit
// of cost than the logistic model they replace (docs/results/issue8/session47).
// Touches nothing but its arguments.
#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

#include "reader/acceptance_refiner.h"
#include "util/logistic.h"

namespace reader {
namespace {

double log_loss(double p, bool accepted) {
  p = std::clamp(p, 1e-9, 1 - 1e-9);
  return -std::log(accepted ? p : 1 - p);
}

// Each feature's candidate thresholds (ascending values that occur in the samples, at most
// `bins - 1` of them at quantiles) and every sample's bin: the number of thresholds <= x, so
// that x < threshold[k] exactly when its bin is <= k.
struct Binned {
  std::vector<std::vector<float>> thresholds;  // per feature
  std::vector<std::uint8_t> bin;               // [sample * kRefinerFeatures + feature]
};

Binned bin_features(const std::vector<RefinerSample>& samples, int bins) {
  constexpr auto d = static_cast<size_t>(kRefinerFeatures);
  Binned b;
  b.thresholds.resize(d);
  b.bin.resize(samples.size() * d);
  std::vector<float> values(samples.size());
  for (size_t f = 0; f < d; ++f) {
    for (size_t s = 0; s < samples.size(); ++s) values[s] = samples[s].x[f];
    std::sort(values.begin(), values.end());
    std::vector<float>& t = b.thresholds[f];
    for (int k = 1; k < bins; ++k) {  // the value at each quantile that starts a new run
      const float v = values[values.size() * static_cast<size_t>(k) / static_cast<size_t>(bins)];
      if (v > values.front() && (t.empty() || v > t.back())) t.push_back(v);
    }
    for (size_t s = 0; s < samples.size(); ++s)
      b.bin[s * d + f] = static_cast<std::uint8_t>(
          std::upper_bound(t.begin(), t.end(), samples[s].x[f]) - t.begin());
  }
  return b;
}

// One tree grown on the samples `use` selects, given each sample's gradient and hessian; `node`
// is left holding every sample's leaf (0-based), held-out ones included.
RefinerTree grow_tree(const Binned& b, const std::vector<char>& use, const std::vector<double>& g,
                      const std::vector<double>& h, const BoostingOptions& o,
                      std::vector<int>& node) {
  constexpr auto d = static_cast<size_t>(kRefinerFeatures);
  constexpr size_t kBins = 256, kSlab = d * kBins;  // one node's histogram
  RefinerTree tree;
  std::array<size_t, kRefinerTreeInner> split_bin{};  // per inner node: left holds bins <= it
  std::array<double, kRefinerTreeInner> total_g{}, total_h{};
  node.assign(use.size(), 0);  // each sample's node at the current level
  std::vector<double> hist_g, hist_h;
  for (int level = 0; level < kRefinerTreeDepth; ++level) {
    // The histograms of every node of this level, in one pass over the samples.
    const auto first = static_cast<size_t>((1 << level) - 1), width = first + 1;
    hist_g.assign(width * kSlab, 0.0);
    hist_h.assign(width * kSlab, 0.0);
    for (size_t s = 0; s < use.size(); ++s) {
      if (!use[s]) continue;
      const auto i = static_cast<size_t>(node[s]);
      total_g[i] += g[s];
      total_h[i] += h[s];
      const std::uint8_t* bins = &b.bin[s * d];
      double* slab_g = &hist_g[(i - first) * kSlab];
      double* slab_h = &hist_h[(i - first) * kSlab];
      for (size_t f = 0; f < d; ++f) {
        slab_g[f * kBins + bins[f]] += g[s];
        slab_h[f * kBins + bins[f]] += h[s];
      }
    }
    for (size_t i = first; i < first + width; ++i) {
      // The split of most gain in the penalized loss; none (all go left) where none gains.
      const double* slab_g = &hist_g[(i - first) * kSlab];
      const double* slab_h = &hist_h[(i - first) * kSlab];
      const double parent = total_g[i] * total_g[i] / (total_h[i] + o.l2);
      double best_gain = 1e-12;
      tree.feature[i] = -1;
      for (size_t f = 0; f < d; ++f) {
        double left_g = 0, left_h = 0;
        for (size_t k = 0; k < b.thresholds[f].size(); ++k) {  // left: bins 0..k
          left_g += slab_g[f * kBins + k];
          left_h += slab_h[f * kBins + k];
          const double right_g = total_g[i] - left_g, right_h = total_h[i] - left_h;
          if (left_h < o.min_child_weight || right_h < o.min_child_weight) continue;
          const double gain =
              left_g * left_g / (left_h + o.l2) + right_g * right_g / (right_h + o.l2) - parent;
          if (gain > best_gain) {
            best_gain = gain;
            tree.feature[i] = static_cast<std::int32_t>(f);
            tree.threshold[i] = b.thresholds[f][k];
            split_bin[i] = k;
          }
        }
      }
    }
    for (size_t s = 0; s < use.size(); ++s) {  // down one level, as leaf_of() goes
      const auto i = static_cast<size_t>(node[s]);
      const std::int32_t f = tree.feature[i];
      const bool right = f >= 0 && b.bin[s * d + static_cast<size_t>(f)] > split_bin[i];
      node[s] = 2 * node[s] + 1 + (right ? 1 : 0);
    }
  }
  std::array<double, 1 << kRefinerTreeDepth> leaf_g{}, leaf_h{};
  for (int& n : node) n -= kRefinerTreeInner;
  for (size_t s = 0; s < use.size(); ++s) {
    if (!use[s]) continue;
    leaf_g[static_cast<size_t>(node[s])] += g[s];
    leaf_h[static_cast<size_t>(node[s])] += h[s];
  }
  for (size_t k = 0; k < tree.leaf.size(); ++k)
    tree.leaf[k] = static_cast<float>(-o.learning_rate * leaf_g[k] / (leaf_h[k] + o.l2));
  return tree;
}

// Boosting on the samples `use` selects; returns the model (samples and losses left unset).
AcceptanceRefiner boost(const std::vector<RefinerSample>& samples, const Binned& b,
                        const std::vector<char>& use, const BoostingOptions& o) {
  double accepted = 0, count = 0;
  for (size_t s = 0; s < samples.size(); ++s)
    if (use[s]) {
      accepted += samples[s].accepted;
      count += 1;
    }
  AcceptanceRefiner r;
  r.base = logit(accepted / count);
  std::vector<double> margin(samples.size(), r.base), g(samples.size()), h(samples.size());
  std::vector<int> leaf;  // each sample's leaf in the last tree
  for (int round = 0; round < o.trees; ++round) {
    for (size_t s = 0; s < samples.size(); ++s) {
      const double p = sigmoid(margin[s]);
      g[s] = p - (samples[s].accepted ? 1.0 : 0.0);
      h[s] = std::max(p * (1 - p), 1e-16);
    }
    r.trees.push_back(grow_tree(b, use, g, h, o, leaf));
    const RefinerTree& t = r.trees.back();
    for (size_t s = 0; s < samples.size(); ++s) margin[s] += t.leaf[static_cast<size_t>(leaf[s])];
  }
  return r;
}

}  // namespace

AcceptanceRefiner fit_refiner(const std::vector<RefinerSample>& samples,
                              const BoostingOptions& options) {
  size_t accepted = 0;
  for (const RefinerSample& s : samples) accepted += s.accepted;
  if (samples.size() < 100 || accepted == 0 || accepted == samples.size())
    throw std::invalid_argument(
        "refiner: needs at least 100 judged candidates of both verdicts, "
        "got " +
        std::to_string(samples.size()) + " (" + std::to_string(accepted) + " accepted)");
  if (options.bins < 2 || options.bins > 256 || options.trees < 0)
    throw std::invalid_argument("refiner: bins must be in [2, 256] and trees >= 0");
  const Binned binned = bin_features(samples, options.bins);
  // Every fifth sample held out of a first fit, to report what the refiner is worth.
  std::vector<char> use(samples.size());
  for (size_t s = 0; s < samples.size(); ++s) use[s] = s % 5 != 0;
  const AcceptanceRefiner held_out_fit = boost(samples, binned, use, options);
  double base = 0, refined = 0, held = 0;
  for (size_t s = 0; s < samples.size(); s += 5) {
    base += log_loss(sigmoid(samples[s].x[0]), samples[s].accepted);
    refined += log_loss(held_out_fit.refine(samples[s].x), samples[s].accepted);
    held += 1;
  }
  std::fill(use.begin(), use.end(), 1);
  AcceptanceRefiner r = boost(samples, binned, use, options);
  r.base_log_loss = base / held;
  r.refined_log_loss = refined / held;
  r.samples = static_cast<std::int64_t>(samples.size());
  return r;
}

}  // namespace reader
