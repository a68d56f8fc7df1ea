#include "bench_bound.h"

#include <fmt/format.h>

#include <algorithm>

#include "bench_report.h"
#include "reader/copy_bound.h"

namespace reader::cli {

using nlohmann::json;

BoundTable::BoundTable(std::function<CostCurve(int context)> curve_at,
                       const ExternalMatcher* datastore)
    : curve_at_(std::move(curve_at)), datastore_(datastore) {}

json BoundTable::add(const std::string& set, TokenSpan prompt, TokenSpan output) {
  // The cost at the generation's mean context: prompt plus half the output.
  const CostCurve curve = curve_at_(static_cast<int>(prompt.size() + output.size() / 2));
  const CopyBound own = copy_oracle_bound(copyable_run_lengths(prompt, output), curve);
  auto [it, added] = sets_.try_emplace(set);
  if (added) order_.push_back(set);
  SetTotals& t = it->second;
  t.ar_cost += own.ar_cost;
  t.cost += own.cost;
  t.ceilings.push_back(speedup_ceiling(curve));
  ++t.prompts;
  json row = {{"bound", own.speedup()}, {"bound_steps", own.drafts.size()}};
  if (datastore_) {
    const CopyBound ds = copy_oracle_bound(copyable_run_lengths(prompt, output, datastore_), curve);
    t.cost_datastore += ds.cost;
    row["bound_datastore"] = ds.speedup();
  }
  row["ceiling"] = t.ceilings.back();
  return row;
}

json BoundTable::set_bounds(const SetTotals& t) const {
  json b = {{"bound", t.cost > 0 ? t.ar_cost / t.cost : 1.0}, {"ceiling", median(t.ceilings)}};
  b["bound_datastore"] =
      datastore_ ? json(t.cost_datastore > 0 ? t.ar_cost / t.cost_datastore : 1.0) : json(nullptr);
  return b;
}

std::string BoundTable::annotate(json& summary) const {
  std::vector<std::string> methods;  // non-AR methods, in summary order
  for (json& row : summary) {
    const auto it = sets_.find(row["set"].get<std::string>());
    if (it == sets_.end()) continue;
    const json b = set_bounds(it->second);
    row.update(b);
    const double speedup = row["speedup"].get<double>();
    row["fraction_of_bound"] = speedup / b["bound"].get<double>();
    if (datastore_)
      row["fraction_of_bound_datastore"] = speedup / b["bound_datastore"].get<double>();
    const std::string m = row["method"];
    if (m != "ar" && std::find(methods.begin(), methods.end(), m) == methods.end())
      methods.push_back(m);
  }
  std::string md =
      "\nCopy-oracle bound (speedup over AR an oracle copier would reach under the "
      "cost curve; share = speedup / bound" +
      std::string(datastore_ ? ", without / with the datastore" : "") +
      "):\n\n| set | bound (prompt + output) | bound (+ datastore) | ceiling |";
  for (const std::string& m : methods) md += " " + m + " share |";
  md += "\n|---|---|---|---|";
  for (size_t i = 0; i < methods.size(); ++i) md += "---|";
  md += "\n";
  for (const std::string& set : order_) {
    const json b = set_bounds(sets_.at(set));
    md += fmt::format("| {} | {:.2f}x | {} | {:.2f}x |", set, b["bound"].get<double>(),
                      datastore_ ? fmt::format("{:.2f}x", b["bound_datastore"].get<double>()) : "-",
                      b["ceiling"].get<double>());
    for (const std::string& m : methods) {
      std::string cell = " - |";
      for (const json& row : summary)
        if (row["set"] == set && row["method"] == m)
          cell = datastore_
                     ? fmt::format(" {:.0f}% / {:.0f}% |",
                                   100 * row["fraction_of_bound"].get<double>(),
                                   100 * row["fraction_of_bound_datastore"].get<double>())
                     : fmt::format(" {:.0f}% |", 100 * row["fraction_of_bound"].get<double>());
      md += cell;
    }
    md += "\n";
  }
  return md;
}

}  // namespace reader::cli
