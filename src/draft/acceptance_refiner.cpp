// The refiner's features, its logistic fit and the collection of judged candidates
// (acceptance_refiner.h). Touches nothing but its arguments.
#include "reader/acceptance_refiner.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "reader/generate.h"
#include "util/logistic.h"

namespace reader {
namespace {

// The trie node of `gram` read from the root, or -1 where the text never held it.
std::int32_t find_gram(const ShortTermTrie& text, TokenSpan gram) {
  std::int32_t node = ShortTermTrie::kRoot;
  for (Token t : gram) {
    node = text.child(node, t);
    if (node < 0) return -1;
  }
  return node;
}

constexpr size_t kLongestGram = 4;
constexpr std::array<DraftSource, 4> kSources = {DraftSource::kSpeculator, DraftSource::kWidening,
                                                 DraftSource::kDeepening, DraftSource::kCopy};

}  // namespace

// Feature by feature (x[j]):
//   0      logit of q, the estimate as weighed        1   its square / 10
//   2      log of alpha (q's product along the path)  3-4 depth, log depth
//   5      the parent's children                      6   siblings with a higher q
//   7      sum of the siblings' q (its own included)  8   the node's own children
//   9-12   drafted by speculator, widening, deepening, copy (1 or 0)
//   13-28  for the last k = 1..4 tokens before it: log(1 + times the text continued them),
//          the share continued with this token (-1: never continued), whether this token is
//          the most frequent continuation, log(1 + times continued with it)
//   29     the text's mean tokens committed per step  30  log(1 + the token's count in the text)
//   31-34  logit of q times each source flag           35  logit of q times the pace (29)
//   36     logit of q times log depth
std::vector<RefinerFeatures> refiner_features(const DraftTree& tree, const std::vector<double>& q,
                                              TokenSpan context, const ShortTermTrie& text,
                                              const TextPace& pace) {
  const int n = tree.size();
  std::vector<RefinerFeatures> out(static_cast<size_t>(n), RefinerFeatures{});
  std::vector<double> alpha(static_cast<size_t>(n), 1.0), sibling_q(static_cast<size_t>(n), 0.0);
  std::vector<int> children(static_cast<size_t>(n), 0);
  for (int i = 1; i < n; ++i) {
    const auto p = static_cast<size_t>(tree.parent(i));
    alpha[static_cast<size_t>(i)] = alpha[p] * q[static_cast<size_t>(i)];
    ++children[p];
    sibling_q[p] += q[static_cast<size_t>(i)];
  }
  Tokens before;  // the last tokens before a node: its path's, then the context's
  for (int i = 1; i < n; ++i) {
    const auto u = static_cast<size_t>(i);
    const int p = tree.parent(i);
    const double lq = logit(q[u]);
    int rank = 0;
    for (int s = tree.first_child(p); s >= 0; s = tree.next_sibling(s))
      rank += q[static_cast<size_t>(s)] > q[u];
    RefinerFeatures& x = out[u];
    const double depth = tree.depth(i);
    x[0] = static_cast<float>(lq);
    x[1] = static_cast<float>(lq * lq / 10);
    x[2] = static_cast<float>(std::log(std::max(alpha[u], 1e-9)));
    x[3] = static_cast<float>(depth);
    x[4] = static_cast<float>(std::log(depth));
    x[5] = static_cast<float>(children[static_cast<size_t>(p)]);
    x[6] = static_cast<float>(rank);
    x[7] = static_cast<float>(sibling_q[static_cast<size_t>(p)]);
    x[8] = static_cast<float>(children[u]);
    for (size_t s = 0; s < kSources.size(); ++s) {
      x[9 + s] = tree.source(i) == kSources[s] ? 1.f : 0.f;
      x[31 + s] = static_cast<float>(lq) * x[9 + s];
    }
    before.clear();
    for (int a = p; a > 0 && before.size() < kLongestGram; a = tree.parent(a))
      before.push_back(tree.token(a));
    for (auto c = context.rbegin(); c != context.rend() && before.size() < kLongestGram; ++c)
      before.push_back(*c);
    std::reverse(before.begin(), before.end());
    const Token token = tree.token(i);
    for (size_t k = 1; k <= kLongestGram; ++k) {
      double total = 0, hits = 0;
      bool top = false;
      if (before.size() >= k) {
        const std::int32_t node = find_gram(text, TokenSpan(before).last(k));
        if (node >= 0) {
          const auto next = text.children(node);
          for (const TrieEdge& e : next) total += e.count;
          hits = text.edge(node, token).count;
          top = !next.empty() && next.front().token == token;
        }
      }
      float* g = &x[13 + 4 * (k - 1)];
      g[0] = static_cast<float>(std::log1p(total));
      g[1] = total > 0 ? static_cast<float>(hits / total) : -1.f;
      g[2] = top ? 1.f : 0.f;
      g[3] = static_cast<float>(std::log1p(hits));
    }
    x[29] = static_cast<float>(pace.mean_committed);
    x[30] = static_cast<float>(std::log1p(text.edge(ShortTermTrie::kRoot, token).count));
    x[35] = static_cast<float>(lq * pace.mean_committed);
    x[36] = static_cast<float>(lq * x[4]);
  }
  return out;
}

double AcceptanceRefiner::refine(const RefinerFeatures& x) const {
  double z = bias;
  for (size_t j = 0; j < weights.size(); ++j) z += weights[j] * (x[j] - mean[j]) / scale[j];
  return sigmoid(z);
}

void AcceptanceRefiner::validate() const {
  const auto size = static_cast<size_t>(kRefinerFeatures);
  if (mean.size() != size || scale.size() != size || weights.size() != size)
    throw std::invalid_argument("refiner: expected " + std::to_string(size) + " features, got " +
                                std::to_string(weights.size()));
  const auto finite = [](double v) { return std::isfinite(v); };
  if (!std::all_of(mean.begin(), mean.end(), finite) ||
      !std::all_of(weights.begin(), weights.end(), finite) || !std::isfinite(bias) ||
      !std::all_of(scale.begin(), scale.end(), [](double s) { return std::isfinite(s) && s > 0; }))
    throw std::invalid_argument("refiner: weights must be finite and scales positive");
}

namespace {

// Solves A x = b in place for a symmetric positive definite A (n x n, row-major; Cholesky).
std::vector<double> solve_spd(std::vector<double> a, std::vector<double> b, size_t n) {
  for (size_t j = 0; j < n; ++j) {
    double d = a[j * n + j];
    for (size_t k = 0; k < j; ++k) d -= a[j * n + k] * a[j * n + k];
    d = std::sqrt(std::max(d, 1e-12));
    a[j * n + j] = d;
    for (size_t i = j + 1; i < n; ++i) {
      double s = a[i * n + j];
      for (size_t k = 0; k < j; ++k) s -= a[i * n + k] * a[j * n + k];
      a[i * n + j] = s / d;
    }
  }
  for (size_t i = 0; i < n; ++i) {  // L y = b
    for (size_t k = 0; k < i; ++k) b[i] -= a[i * n + k] * b[k];
    b[i] /= a[i * n + i];
  }
  for (size_t i = n; i-- > 0;) {  // L^T x = y
    for (size_t k = i + 1; k < n; ++k) b[i] -= a[k * n + i] * b[k];
    b[i] /= a[i * n + i];
  }
  return b;
}

double log_loss(double p, bool accepted) {
  p = std::clamp(p, 1e-9, 1 - 1e-9);
  return -std::log(accepted ? p : 1 - p);
}

// Newton's method on the standardized features of the samples `use` selects.
void fit_weights(AcceptanceRefiner& r, const std::vector<RefinerSample>& samples,
                 const std::vector<char>& use, double l2) {
  const size_t d = kRefinerFeatures, m = d + 1;  // weights, then the bias
  std::vector<double> theta(m, 0.0), z(m);
  for (int iteration = 0; iteration < 50; ++iteration) {
    std::vector<double> hessian(m * m, 0.0), gradient(m, 0.0);
    for (size_t s = 0; s < samples.size(); ++s) {
      if (!use[s]) continue;
      for (size_t j = 0; j < d; ++j) z[j] = (samples[s].x[j] - r.mean[j]) / r.scale[j];
      z[d] = 1;
      double dot = 0;
      for (size_t j = 0; j < m; ++j) dot += theta[j] * z[j];
      const double p = sigmoid(dot), w = std::max(p * (1 - p), 1e-9);
      const double residual = p - (samples[s].accepted ? 1.0 : 0.0);
      for (size_t j = 0; j < m; ++j) {
        gradient[j] += residual * z[j];
        for (size_t k = 0; k <= j; ++k) hessian[j * m + k] += w * z[j] * z[k];
      }
    }
    for (size_t j = 0; j < m; ++j)
      for (size_t k = j + 1; k < m; ++k) hessian[j * m + k] = hessian[k * m + j];
    for (size_t j = 0; j < d; ++j) {  // the penalty spares the bias
      gradient[j] += l2 * theta[j];
      hessian[j * m + j] += l2;
    }
    const std::vector<double> step = solve_spd(hessian, gradient, m);
    double largest = 0;
    for (size_t j = 0; j < m; ++j) {
      theta[j] -= step[j];
      largest = std::max(largest, std::abs(step[j]));
    }
    if (largest < 1e-7) break;
  }
  r.weights.assign(theta.begin(), theta.begin() + static_cast<std::ptrdiff_t>(d));
  r.bias = theta[d];
}

}  // namespace

AcceptanceRefiner fit_refiner(const std::vector<RefinerSample>& samples, double l2) {
  size_t accepted = 0;
  for (const RefinerSample& s : samples) accepted += s.accepted;
  if (samples.size() < 100 || accepted == 0 || accepted == samples.size())
    throw std::invalid_argument(
        "refiner: needs at least 100 judged candidates of both verdicts, "
        "got " +
        std::to_string(samples.size()) + " (" + std::to_string(accepted) + " accepted)");
  AcceptanceRefiner r;
  const size_t d = kRefinerFeatures;
  const auto count = static_cast<double>(samples.size());
  r.mean.assign(d, 0.0);
  r.scale.assign(d, 0.0);
  for (const RefinerSample& s : samples)
    for (size_t j = 0; j < d; ++j) r.mean[j] += s.x[j] / count;
  for (const RefinerSample& s : samples)
    for (size_t j = 0; j < d; ++j) r.scale[j] += (s.x[j] - r.mean[j]) * (s.x[j] - r.mean[j]);
  for (double& v : r.scale) v = v > 1e-12 * count ? std::sqrt(v / count) : 1.0;
  // Every fifth sample held out of a first fit, to report what the refiner is worth.
  std::vector<char> use(samples.size());
  for (size_t s = 0; s < samples.size(); ++s) use[s] = s % 5 != 0;
  fit_weights(r, samples, use, l2);
  double base = 0, refined = 0, held = 0;
  for (size_t s = 0; s < samples.size(); s += 5) {
    base += log_loss(sigmoid(samples[s].x[0]), samples[s].accepted);
    refined += log_loss(r.refine(samples[s].x), samples[s].accepted);
    held += 1;
  }
  r.base_log_loss = base / held;
  r.refined_log_loss = refined / held;
  std::fill(use.begin(), use.end(), 1);
  fit_weights(r, samples, use, l2);
  r.samples = static_cast<std::int64_t>(samples.size());
  return r;
}

void RefinerCollector::step(int root_position, const DraftTree& tree,
                            std::vector<RefinerFeatures> features) {
  Step s;
  s.root_position = root_position;
  s.parents = tree.parents();
  s.tokens = tree.tokens();
  s.features = std::move(features);
  pending_.push_back(std::move(s));
}

void RefinerCollector::finish(TokenSpan prompt, TokenSpan output) {
  const auto length = static_cast<std::ptrdiff_t>(prompt.size() + output.size());
  const auto at = [&](std::ptrdiff_t position) {
    return position < static_cast<std::ptrdiff_t>(prompt.size())
               ? prompt[static_cast<size_t>(position)]
               : output[static_cast<size_t>(position) - prompt.size()];
  };
  for (const Step& s : pending_) {
    const size_t n = s.tokens.size();
    std::vector<char> matched(n, 0);
    std::vector<std::ptrdiff_t> position(n, s.root_position);
    matched[0] = 1;
    for (size_t i = 1; i < n; ++i) {
      const auto p = static_cast<size_t>(s.parents[i]);
      position[i] = position[p] + 1;
      if (!matched[p]) continue;  // never judged: its parent was not accepted
      matched[i] = position[i] < length && at(position[i]) == s.tokens[i];
      samples_.push_back({s.features[i], matched[i] != 0});
    }
  }
  pending_.clear();
}

}  // namespace reader
