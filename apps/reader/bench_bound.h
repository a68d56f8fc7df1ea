// reader bench --bound: the copy-oracle bound (reader/copy_bound.h) of each prompt set,
// computed from the autoregressive outputs of the bench run, beside the measured speedups,
// so that a method's speedup reads as a share of what copying could reach on this machine.
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
  // summary rows ({"set", "method", "speedup", ...}); returns them as a markdown table.
  std::string annotate(nlohmann::json& summary) const;

 private:
  // Sums over a set's prompts: a set's bound is its AR cost over the oracle's cost.
  struct SetTotals {
    double ar_cost = 0;            // autoregressive cost of every output, in c(1) units
    double cost = 0;               // the oracle's cost copying from prompt + output
    double cost_datastore = 0;     // ... and from the datastore too
    std::vector<double> ceilings;  // each prompt's hardware ceiling
    int prompts = 0;               // prompts recorded
  };
  nlohmann::json set_bounds(const SetTotals& t) const;

  std::function<CostCurve(int context)> curve_at_;  // cost curve by cached tokens
  const ExternalMatcher* datastore_;                // or null
  std::map<std::string, SetTotals> sets_;           // by set name
  std::vector<std::string> order_;                  // set names in order of first add()
};

}  // namespace reader::cli
