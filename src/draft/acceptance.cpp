// Acceptance rates per kind of draft node: calibration counts, the priors derived from
// them, and the online model the drafter consults every step.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

#include "reader/generate.h"
#include "reader/tree_policy.h"
#include "util/logistic.h"

namespace reader {
namespace {

constexpr int kStrengths = 4;
constexpr int kSources = static_cast<int>(kWeighedSources.size());
// Pseudo-observations a group's estimate lends to the finer group below it.
constexpr double kBackoffWeight = 4.0;

int source_index(DraftSource s) {
  const auto* it = std::find(kWeighedSources.begin(), kWeighedSources.end(), s);
  if (it == kWeighedSources.end())
    throw std::invalid_argument("no acceptance kind for draft source " + std::string(to_string(s)));
  return static_cast<int>(it - kWeighedSources.begin());
}

// The one layout of the cells: source, then feature, strength, agreement (all in range).
int cell_index(int source, int feature, int strength, int agreement) {
  return ((source * AcceptanceCounts::kFeatures + feature) * kStrengths + strength) * kAgreements +
         agreement;
}

// What we assume with no calibration at all: cautious, so that an uncalibrated drafter
// drafts only on strong evidence. A retrieval token is believed in proportion to the
// verbatim context it continues; at c(2) ~ 1.2 a token pays only above q ~ 0.2.
double structural_default(int source, int feature, int agreement_index) {
  if (source == 0) {
    const int rank = feature % 4;
    const int depth = feature / 4 + 1;
    return rank > 0 ? 0.05 : depth == 1 ? 0.2 : 0.15;
  }
  const double trie = std::min(0.5, 0.05 * feature);
  const auto agreement = static_cast<Agreement>(agreement_index);
  return agreement == Agreement::kText || agreement == Agreement::kBoth ? trie
         : agreement == Agreement::kLongTerm                            ? 0.6 * trie
                                                                        : 0.3 * trie;
}

// Weighted isotonic (non-decreasing) regression by pool-adjacent-violators.
void make_non_decreasing(std::vector<double>& y, const std::vector<double>& w) {
  struct Block {
    double sum, weight;
    int count;
  };
  std::vector<Block> blocks;
  for (size_t i = 0; i < y.size(); ++i) {
    blocks.push_back({y[i] * w[i], w[i], 1});
    while (blocks.size() > 1 && blocks[blocks.size() - 2].sum * blocks.back().weight >
                                    blocks.back().sum * blocks[blocks.size() - 2].weight) {
      Block b = blocks.back();
      blocks.pop_back();
      blocks.back().sum += b.sum;
      blocks.back().weight += b.weight;
      blocks.back().count += b.count;
    }
  }
  size_t i = 0;
  for (const Block& b : blocks)
    for (int k = 0; k < b.count; ++k) y[i++] = b.sum / b.weight;
}

}  // namespace

AcceptanceCounts::AcceptanceCounts()
    : accepted_(static_cast<size_t>(kCells), 0.0), tried_(static_cast<size_t>(kCells), 0.0) {}

int AcceptanceCounts::cell(const NodeKind& k) {
  const int f = std::clamp(k.feature, 0, kFeatures - 1);
  const int s = std::clamp(k.strength, 0, kStrengths - 1);
  const int ag = std::clamp(static_cast<int>(k.agreement), 0, kAgreements - 1);
  return cell_index(source_index(k.source), f, s, ag);
}

NodeKind AcceptanceCounts::kind(int cell) {
  NodeKind k;
  k.agreement = static_cast<Agreement>(cell % kAgreements);
  cell /= kAgreements;
  k.strength = cell % kStrengths;
  cell /= kStrengths;
  k.feature = cell % kFeatures;
  k.source = kWeighedSources[static_cast<size_t>(cell / kFeatures)];
  return k;
}

void AcceptanceCounts::add(const NodeKind& kind, bool accepted, double weight) {
  const auto c = static_cast<size_t>(cell(kind));
  tried_[c] += weight;
  if (accepted) accepted_[c] += weight;
}

void AcceptanceCounts::set(int cell, double accepted, double tried) {
  if (cell < 0 || cell >= kCells) throw std::out_of_range("acceptance cell out of range");
  if (!(accepted >= 0) || !(tried >= accepted))
    throw std::invalid_argument("acceptance counts need 0 <= accepted <= tried");
  accepted_[static_cast<size_t>(cell)] = accepted;
  tried_[static_cast<size_t>(cell)] = tried;
}

double AcceptanceCounts::total_tried() const {
  return std::accumulate(tried_.begin(), tried_.end(), 0.0);
}

std::vector<double> acceptance_priors(const AcceptanceCounts& counts) {
  constexpr int F = AcceptanceCounts::kFeatures;
  std::vector<double> prior(static_cast<size_t>(AcceptanceCounts::kCells), 0.0);
  const auto shrink = [](double a, double n, double toward) {
    return (a + kBackoffWeight * toward) / (n + kBackoffWeight);
  };
  // Group sums over the cells of one source/feature (all strengths, agreements).
  for (int src = 0; src < kSources; ++src) {
    for (int f = 0; f < F; ++f) {
      for (int ag = 0; ag < kAgreements; ++ag) {
        // A seconded speculator guess backs off to the lone guess instead (below).
        if (src == 0 && ag == static_cast<int>(Agreement::kBoth)) continue;
        // Level 1: every source of the same class at this feature (and agreement, for retrieval;
        // the copy counts as retrieval here, its feature being the match at its root).
        double a1 = 0, n1 = 0, a2 = 0, n2 = 0;
        for (int s2 = 0; s2 < kSources; ++s2) {
          if ((s2 == 0) != (src == 0)) continue;
          for (int s = 0; s < kStrengths; ++s) {
            const int c = cell_index(s2, f, s, ag);
            a1 += counts.accepted(c);
            n1 += counts.tried(c);
            if (s2 == src) {
              a2 += counts.accepted(c);
              n2 += counts.tried(c);
            }
          }
        }
        const double est1 = shrink(a1, n1, structural_default(src, f, ag));
        const double est2 = shrink(a2, n2, est1);
        for (int s = 0; s < kStrengths; ++s) {
          const int c = cell_index(src, f, s, ag);
          prior[static_cast<size_t>(c)] = shrink(counts.accepted(c), counts.tried(c), est2);
        }
      }
    }
  }
  // A seconded speculator guess (Agreement::kBoth) with little evidence borrows from the
  // seconded guesses at its depth and rank, and those from the lone guess of its cell: a
  // profile counted before seconding existed then weighs every guess as it did.
  for (int f = 0; f < F; ++f) {
    double a = 0, n = 0;
    for (int s = 0; s < kStrengths; ++s) {
      const int c = cell_index(0, f, s, static_cast<int>(Agreement::kBoth));
      a += counts.accepted(c);
      n += counts.tried(c);
    }
    for (int s = 0; s < kStrengths; ++s) {
      const int c = cell_index(0, f, s, static_cast<int>(Agreement::kBoth));
      const double lone =
          prior[static_cast<size_t>(cell_index(0, f, s, static_cast<int>(Agreement::kText)))];
      prior[static_cast<size_t>(c)] =
          shrink(counts.accepted(c), counts.tried(c), shrink(a, n, lone));
    }
  }
  // Retrieval: non-decreasing in match length within each (source, strength, agreement) row.
  for (int src = 1; src < kSources; ++src)
    for (int s = 0; s < kStrengths; ++s)
      for (int ag = 0; ag < kAgreements; ++ag) {
        std::vector<double> y, w;
        std::vector<int> cells;
        for (int f = 1; f < F; ++f) {
          const int c = cell_index(src, f, s, ag);
          cells.push_back(c);
          y.push_back(prior[static_cast<size_t>(c)]);
          // Evidence decides: a cell without calibration data barely pulls its neighbours.
          w.push_back(counts.tried(c) + 0.05);
        }
        make_non_decreasing(y, w);
        for (size_t i = 0; i < cells.size(); ++i) prior[static_cast<size_t>(cells[i])] = y[i];
      }
  return prior;
}

AcceptanceCounts without_seconding(AcceptanceCounts counts) {
  for (int f = 0; f < AcceptanceCounts::kFeatures; ++f)
    for (int s = 0; s < kStrengths; ++s) {
      const int seconded = cell_index(0, f, s, static_cast<int>(Agreement::kBoth));
      const int lone = cell_index(0, f, s, static_cast<int>(Agreement::kText));
      counts.set(lone, counts.accepted(lone) + counts.accepted(seconded),
                 counts.tried(lone) + counts.tried(seconded));
      counts.set(seconded, 0, 0);
    }
  return counts;
}

AcceptanceModel::AcceptanceModel(std::vector<double> priors, double prior_weight)
    : priors_(std::move(priors)), prior_weight_(prior_weight) {
  if (priors_.size() != static_cast<size_t>(AcceptanceCounts::kCells))
    throw std::invalid_argument("acceptance priors have the wrong size");
}

AcceptanceModel::AcceptanceModel() : AcceptanceModel(acceptance_priors(AcceptanceCounts{})) {}

double AcceptanceModel::estimate(const NodeKind& kind) const {
  const int c = AcceptanceCounts::cell(kind);
  return (online_.accepted(c) + prior_weight_ * priors_[static_cast<size_t>(c)]) /
         (online_.tried(c) + prior_weight_);
}

void AcceptanceModel::record(const NodeKind& kind, bool accepted) {
  // Exponential forgetting keeps the estimate following the current text.
  constexpr double kDecay = 0.995;
  const int c = AcceptanceCounts::cell(kind);
  online_.set(c, online_.accepted(c) * kDecay + (accepted ? 1.0 : 0.0),
              online_.tried(c) * kDecay + 1.0);
  ++observations_;
}

double AcceptanceRecalibration::adjust(double q) const {
  return shift_ == 0 ? q : sigmoid(logit(q) + shift_);
}

void AcceptanceRecalibration::record(double predicted, bool accepted) {
  const auto item = std::make_pair(static_cast<float>(logit(predicted)), accepted);
  if (recent_.size() < kWindow) {
    recent_.push_back(item);
  } else {
    recent_[next_] = item;
  }
  next_ = (next_ + 1) % kWindow;
}

void AcceptanceRecalibration::refit() {
  // Maximum a posteriori b under a Gaussian prior at 0 worth about 16 tries at q = 0.5, so a
  // few unlucky steps do not swing it; Newton steps from the last b (the fit is concave).
  constexpr double kPriorPrecision = 4.0;
  double b = shift_;
  for (int iter = 0; iter < 3; ++iter) {
    double gradient = -kPriorPrecision * b, curvature = kPriorPrecision;
    for (const auto& [l, accepted] : recent_) {
      const double p = sigmoid(l + b);
      gradient += (accepted ? 1.0 : 0.0) - p;
      curvature += p * (1.0 - p);
    }
    b += gradient / curvature;
  }
  shift_ = std::clamp(b, -4.0, 4.0);
}

void TokenRecord::record(Token token, bool accepted) {
  Counts& c = counts_[token];
  c.accepted += accepted ? 1 : 0;
  ++c.tried;
}

double TokenRecord::adjust(Token token, double q) const {
  const auto it = counts_.find(token);
  if (it == counts_.end()) return q;
  const Counts& c = it->second;
  return std::min(q, (c.accepted + kPriorWeight * q) / (c.tried + kPriorWeight));
}

}  // namespace reader
