// reader bench --bound: the copy-oracle bound (reader/copy_bound.h) of each prompt set,
// computed from the autoregressive outputs of the bench run, beside the measured speedups,
// so that a method's speedup reads as a share of what copying could reach on this machine.
// It is priced twice: on the profile's cost curve (what the drafters plan with), and on the
// verification steps this run paid, per set, against its autoregressive steps: on a shared
// host the second moves with the hour (docs/tree-sizes.md, session 31), and only it makes
// shares of runs at different hours comparable.
#pragma once

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "reader/repetition.h"
#include "reader/tokens.h"
#include "reader/tree_policy.h"

namespace reader::cli {

class BoundTable {
 public:
  // curve_at(context): the verification cost curve with that many tokens cached; datastore:
  // the long-term datastore the methods use (null: none, and no datastore column).
  BoundTable(std::function<CostCurve(int context)> curve_at, const ExternalMatcher* datastore);

  // Records one prompt's autoregressive output; returns its bounds for the run's JSON row.
  nlohmann::json add(const std::string& set, TokenSpan prompt, TokenSpan output);

  // Adds each set's bounds, and each method's share of them (speedup / bound), to the
  // summary rows ({"set", "method", "speedup", ...}); returns them as markdown tables.
  // steps_paid[set]: that set's verification steps in this run against its autoregressive
  // ones (StepTimes::curve_against); up to its largest size it replaces the profile's curve,
  // beyond it the profile's shape goes on (with_steps_in_place). Sets without one, or with
  // c(1) alone, get the profile's pricing only.
  std::string annotate(nlohmann::json& summary,
                       const std::map<std::string, CostCurve>& steps_paid = {}) const;

 private:
  // One autoregressive output, as the oracle sees it.
  struct Output {
    std::string set;
    int context = 0;                  // prompt plus half the output: the mean context
    std::vector<int> runs;            // copyable_run_lengths from prompt + output
    std::vector<int> runs_datastore;  // ... and from the datastore (empty without one)
  };
  // Sums over a set's outputs: a set's bound is its AR cost over the oracle's cost.
  struct SetTotals {
    double ar_cost = 0;            // autoregressive cost of every output, in c(1) units
    double cost = 0;               // the oracle's cost copying from prompt + output
    double cost_datastore = 0;     // ... and from the datastore too
    std::vector<double> ceilings;  // each output's hardware ceiling
  };
  SetTotals price(const std::string& set,
                  const std::function<CostCurve(int context)>& curve_at) const;
  nlohmann::json set_bounds(const SetTotals& t) const;

  std::function<CostCurve(int context)> curve_at_;  // the profile's curve by cached tokens
  const ExternalMatcher* datastore_;                // or null
  std::vector<Output> outputs_;                     // every output recorded, in order
};

}  // namespace reader::cli
