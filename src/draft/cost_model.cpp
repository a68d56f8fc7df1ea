// Verification cost curves c(n) and their dependence on the context length.
#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>

#include "reader/tree_policy.h"

namespace reader {

CostCurve::CostCurve(std::vector<std::pair<int, double>> points) : points_(std::move(points)) {
  if (points_.empty() || points_.front().first != 1)
    throw std::invalid_argument("cost curve must start at n = 1");
  for (size_t i = 1; i < points_.size(); ++i)
    if (points_[i].first <= points_[i - 1].first)
      throw std::invalid_argument("cost curve must be sorted by n");
  for (const auto& [n, c] : points_)
    if (!(c > 0) || !std::isfinite(c))
      throw std::invalid_argument("cost curve values must be positive and finite");
  // A measured curve never decreases (cost_probe.cpp); one that did would extrapolate to
  // negative costs, and CostModel::at would throw at generation time (fuzz/fuzz_profile).
  for (size_t i = 1; i < points_.size(); ++i)
    if (points_[i].second < points_[i - 1].second)
      throw std::invalid_argument("cost curve values must not decrease with n");
}

double CostCurve::operator()(int n) const {
  if (n <= points_.front().first) return points_.front().second;
  for (size_t i = 1; i < points_.size(); ++i) {
    if (n <= points_[i].first) {
      const auto [n0, c0] = points_[i - 1];
      const auto [n1, c1] = points_[i];
      return c0 + (c1 - c0) * (n - n0) / static_cast<double>(n1 - n0);
    }
  }
  if (points_.size() == 1) return points_[0].second * n;
  const auto [n0, c0] = points_[points_.size() - 2];
  const auto [n1, c1] = points_.back();
  return c1 + (c1 - c0) * (n - n1) / static_cast<double>(n1 - n0);
}

CostModel::CostModel(std::vector<Curve> curves) : curves_(std::move(curves)) {
  if (curves_.empty()) throw std::invalid_argument("cost model needs at least one curve");
  // Non-negative contexts keep at()'s differences of contexts from overflowing an int.
  if (curves_.front().context < 0)
    throw std::invalid_argument("cost curve context lengths must be >= 0");
  for (size_t i = 1; i < curves_.size(); ++i)
    if (curves_[i].context <= curves_[i - 1].context)
      throw std::invalid_argument("cost curves must be sorted by context length");
}

CostCurve CostModel::at(int context) const {
  if (context <= curves_.front().context) return curves_.front().curve;
  if (context >= curves_.back().context) return curves_.back().curve;
  size_t hi = 1;
  while (curves_[hi].context < context) ++hi;
  const Curve& a = curves_[hi - 1];
  const Curve& b = curves_[hi];
  const double w = (context - a.context) / static_cast<double>(b.context - a.context);
  // Interpolate at the union of both curves' sample points.
  std::vector<int> ns;
  for (const auto& p : a.curve.points()) ns.push_back(p.first);
  for (const auto& p : b.curve.points()) ns.push_back(p.first);
  std::sort(ns.begin(), ns.end());
  ns.erase(std::unique(ns.begin(), ns.end()), ns.end());
  std::vector<std::pair<int, double>> points;
  points.reserve(ns.size());
  for (int n : ns) points.emplace_back(n, (1 - w) * a.curve(n) + w * b.curve(n));
  return CostCurve(std::move(points));
}

void CostModel::set_batch(int context, std::vector<BatchCurve> curves) {
  if (context < 0) throw std::invalid_argument("batch cost context must be >= 0");
  for (size_t i = 0; i < curves.size(); ++i) {
    if (curves[i].sequences < 2) throw std::invalid_argument("batch cost needs sequences >= 2");
    if (i > 0 && curves[i].sequences <= curves[i - 1].sequences)
      throw std::invalid_argument("batch cost curves must be sorted by sequences");
  }
  batch_ = std::move(curves);
  batch_context_ = context;
}

namespace {
// c_B(k), proportional to k beyond the measured sizes: a table stops where B x k is large
// enough to keep the machine busy, and a straight line from the origin never makes more
// tokens look cheaper (a slope from the last two points could cross a larger B's curve).
double batch_at(const CostCurve& curve, int each) {
  const auto [k, c] = curve.points().back();
  return each <= k ? curve(each) : c * each / static_cast<double>(k);
}
}  // namespace

CostModel::PassPrices CostModel::passes_at(int context) const {
  return PassPrices(at(context), at(batch_context_), batch_);
}

double CostModel::PassPrices::operator()(int sequences, int each) const {
  sequences = std::max(sequences, 1);
  each = std::max(each, 1);
  const int tokens = sequences * each;
  if (sequences == 1 || batch_.empty()) return chain_(tokens);
  double c = 0;
  if (sequences <= batch_.front().sequences) {
    // Between one sequence (the chain curve) and the first measured B.
    const BatchCurve& b = batch_.front();
    const double one = table_chain_(each);
    c = one +
        (batch_at(b.curve, each) - one) * (sequences - 1) / static_cast<double>(b.sequences - 1);
  } else if (sequences >= batch_.back().sequences) {
    const BatchCurve& b = batch_.back();
    c = batch_at(b.curve, each) * sequences / static_cast<double>(b.sequences);
  } else {
    size_t hi = 1;
    while (batch_[hi].sequences < sequences) ++hi;
    const BatchCurve& a = batch_[hi - 1];
    const BatchCurve& b = batch_[hi];
    const double w = (sequences - a.sequences) / static_cast<double>(b.sequences - a.sequences);
    c = (1 - w) * batch_at(a.curve, each) + w * batch_at(b.curve, each);
  }
  // Attention grows with the context; the chain curves say by how much for this many tokens.
  return c * chain_(tokens) / table_chain_(tokens);
}

CostModel fallback_cost_model() {
  // reader bench --cost-curve on an Intel Xeon: SmolLM2-135M Q8_0, llama.cpp with the
  // sgemm-for-every-batch patch, 2 threads, 512 cached tokens, medians of 7 runs.
  return CostModel(
      {{512,
        CostCurve(
            {{1, 1.0}, {2, 1.19}, {4, 1.66}, {8, 2.73}, {16, 4.58}, {32, 9.19}, {64, 16.2}})}});
}

CostModel with_steps_in_place(const CostModel& probed, const CostCurve& in_place) {
  const CostCurve& first = probed.curves().front().curve;
  const int last = in_place.points().back().first;  // the largest size generation measured
  std::vector<CostModel::Curve> curves;
  for (const CostModel::Curve& c : probed.curves()) {
    // The probe's sizes and every size generation measured.
    std::vector<int> sizes;
    for (const auto& point : c.curve.points()) sizes.push_back(point.first);
    for (const auto& point : in_place.points()) sizes.push_back(point.first);
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    std::vector<std::pair<int, double>> points;
    double previous = 1.0;
    for (const int n : sizes) {
      // Past what generation measured, the probe's shape from there on.
      const double here = n <= last ? in_place(n) : in_place(last) * first(n) / first(last);
      // Longer contexts add what the probe saw them add to the shortest one.
      previous = std::max(previous, here + c.curve(n) - first(n));
      points.emplace_back(n, previous);
    }
    curves.push_back({c.context, CostCurve(std::move(points))});
  }
  CostModel adjusted(std::move(curves));
  if (!probed.batch().empty()) adjusted.set_batch(probed.batch_context(), probed.batch());
  return adjusted;
}

void StepCostTracker::record(int tokens, double excess, double ms) {
  if (tokens < 1 || !(ms > 0) || !std::isfinite(ms) || !std::isfinite(excess)) return;
  excess = std::max(0.0, excess);
  const bool follows_step = has_previous_;
  const double before = previous_;
  has_previous_ = true;
  // What the steps so far add to the next one: each step's excess, fading by kAftermathDecay
  // a step.
  previous_ = excess + kAftermathDecay * before;
  if (!follows_step) return;
  const double more = tokens > 1 ? 1.0 : 0.0;
  // A step the host stalled (another tenant, a page fault) says little about sizes: once a
  // fit exists, no step counts for more than twice what it predicts.
  const auto [a, j, b, d] = fit_;
  if (a > 0 && steps() >= kMinSteps)
    ms = std::min(ms, 2 * (a + j * more + b * excess + d * before));
  const std::array<double, 5> u = {1.0, more, excess, before, ms};
  for (auto& row : sums_)
    for (double& v : row) v *= kForget;
  for (size_t r = 0; r < 5; ++r)
    for (size_t c = 0; c < 5; ++c) sums_[r][c] += u[r] * u[c];
  refit();
}

void StepCostTracker::refit() {
  // Least squares plus k (j^2 + (b - a)^2 + d^2), k = kPriorSteps kPriorExcess^2: each prior
  // worth kPriorSteps steps at an excess of kPriorExcess. Solved for the first `n` of
  // (a, j, b, d), the rest 0.
  const double k = kPriorSteps * kPriorExcess * kPriorExcess;
  const auto solve = [&](size_t n) -> std::optional<std::array<double, 4>> {
    std::array<std::array<double, 5>, 4> m{};  // the normal equations, right-hand side last
    for (size_t r = 0; r < n; ++r) {
      for (size_t c = 0; c < n; ++c) m[r][c] = sums_[r][c];
      m[r][4] = sums_[r][4];
    }
    m[1][1] += k;                                            // j = 0
    m[0][0] += k, m[2][2] += k, m[0][2] -= k, m[2][0] -= k;  // b = a
    if (n > 3) m[3][3] += k;                                 // d = 0
    // Gaussian elimination: symmetric positive definite, the priors make it so.
    for (size_t c = 0; c < n; ++c) {
      if (!(m[c][c] > 0)) return std::nullopt;
      for (size_t r = c + 1; r < n; ++r) {
        const double f = m[r][c] / m[c][c];
        for (size_t i = c; i < n; ++i) m[r][i] -= f * m[c][i];
        m[r][4] -= f * m[c][4];
      }
    }
    std::array<double, 4> x{};
    for (size_t c = n; c-- > 0;) {
      double v = m[c][4];
      for (size_t i = c + 1; i < n; ++i) v -= m[c][i] * x[i];
      x[c] = v / m[c][c];
      if (!std::isfinite(x[c])) return std::nullopt;
    }
    if (!(x[0] > 0)) return std::nullopt;
    return x;
  };
  // No step makes the next one faster: where the fit says so, the sizes were too few to
  // tell an aftermath from a step's own cost (two sizes in turn, say), and d is left at 0.
  std::optional<std::array<double, 4>> x = solve(4);
  if (x && (*x)[3] < 0) x = solve(3);
  if (x) fit_ = *x;
}

CostCurve StepCostTracker::priced(const CostCurve& curve) const {
  const auto [a, j, b, d] = fit_;
  if (steps() < kMinSteps || !(a > 0)) return curve;
  const double one = curve.points().front().second;  // c(1), 1 on every measured curve
  std::vector<std::pair<int, double>> points = curve.points();
  double previous = 1.0;
  for (auto& [n, c] : points) {
    // Its own time, and what it adds to the steps after it: d x (1 + decay + decay^2 + ...).
    const double fitted = n > 1 ? (a + j + (b + d / (1 - kAftermathDecay)) * (c - one)) / a : 1.0;
    previous = std::max({previous, c / one, fitted});
    c = previous;  // c(1) stays 1: its excess is 0
  }
  return CostCurve(std::move(points));
}

}  // namespace reader
