#include "reader/copy_bound.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace reader {
namespace {

// Z-array of s: z[k] = length of the longest common prefix of s and s[k..] (z[0] = |s|).
void z_array(const std::vector<Token>& s, std::vector<int>& z) {
  const int n = static_cast<int>(s.size());
  z.assign(s.size(), 0);
  if (n == 0) return;
  z[0] = n;
  for (int k = 1, l = 0, r = 0; k < n; ++k) {
    int len = k < r ? std::min(r - k, z[static_cast<size_t>(k - l)]) : 0;
    while (k + len < n && s[static_cast<size_t>(len)] == s[static_cast<size_t>(k + len)]) ++len;
    z[static_cast<size_t>(k)] = len;
    if (k + len > r) l = k, r = k + len;
  }
}

int resolve_max_step(const CostCurve& cost, int max_step) {
  if (max_step < 0) throw std::invalid_argument("max_step must be >= 0");
  return max_step > 0 ? max_step : cost.points().back().first;
}

}  // namespace

std::vector<int> copyable_run_lengths(TokenSpan prompt, TokenSpan output,
                                      const ExternalMatcher* external) {
  const size_t n = output.size();
  std::vector<int> runs(n, 0);
  std::vector<Token> s;
  std::vector<int> z;
  for (size_t i = 0; i < n; ++i) {
    // s = output[i..) ++ prompt ++ output[0..i): a Z value at a position of the committed
    // text is the run that starts there, and it cannot run past the end of s, i.e. past i.
    const size_t m = n - i;
    s.assign(output.begin() + static_cast<std::ptrdiff_t>(i), output.end());
    s.insert(s.end(), prompt.begin(), prompt.end());
    s.insert(s.end(), output.begin(), output.begin() + static_cast<std::ptrdiff_t>(i));
    z_array(s, z);
    int best = 0;
    for (size_t k = m; k < s.size(); ++k)
      best = std::max(best, std::min(z[k], static_cast<int>(m)));
    if (external)
      best = std::max(best, static_cast<int>(external->longest_match_from(output.subspan(i))));
    runs[i] = best;
  }
  return runs;
}

CopyBound copy_oracle_bound(std::span<const int> runs, const CostCurve& cost, int max_step) {
  max_step = resolve_max_step(cost, max_step);
  const int n = static_cast<int>(runs.size());
  CopyBound out;
  if (n <= 1) return out;
  out.tokens = n - 1;
  out.ar_cost = out.tokens * cost(1);
  // best[j]: least cost to commit output[j..n) once output[0..j) is committed; pick[j]: its d.
  std::vector<double> best(static_cast<size_t>(n) + 1, 0.0);
  std::vector<int> pick(static_cast<size_t>(n), 0);
  for (int j = n - 1; j >= 1; --j) {
    const int max_d = std::min({runs[static_cast<size_t>(j)], max_step - 1, n - 1 - j});
    double b = std::numeric_limits<double>::infinity();
    for (int d = 0; d <= max_d; ++d) {
      const double c = cost(d + 1) + best[static_cast<size_t>(j + d + 1)];
      if (c < b) b = c, pick[static_cast<size_t>(j)] = d;
    }
    best[static_cast<size_t>(j)] = b;
  }
  out.cost = best[1];
  for (int j = 1; j < n; j += pick[static_cast<size_t>(j)] + 1)
    out.drafts.push_back(pick[static_cast<size_t>(j)]);
  return out;
}

double speedup_ceiling(const CostCurve& cost, int max_step) {
  max_step = resolve_max_step(cost, max_step);
  double best = 0;
  for (int n = 1; n <= max_step; ++n) best = std::max(best, cost(1) * n / cost(n));
  return best;
}

}  // namespace reader
