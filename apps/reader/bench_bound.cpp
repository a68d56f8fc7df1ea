#include "bench_bound.h"

#include <fmt/format.h>

#include <algorithm>

#include "bench_report.h"
#include "peers.h"
#include "reader/copy_bound.h"
#include "step_times.h"

namespace reader::cli {

using nlohmann::json;

BoundTable::BoundTable(std::function<CostCurve(int context)> curve_at,
                       const ExternalMatcher* datastore)
    : curve_at_(std::move(curve_at)), datastore_(datastore) {}

json BoundTable::add(const std::string& set, TokenSpan prompt, TokenSpan output) {
  Output o{set,
           static_cast<int>(prompt.size() + output.size() / 2),
           copyable_run_lengths(prompt, output),
           {}};
  if (datastore_) o.runs_datastore = copyable_run_lengths(prompt, output, datastore_);
  const CostCurve curve = curve_at_(o.context);
  const CopyBound own = copy_oracle_bound(o.runs, curve);
  json row = {{"bound", own.speedup()}, {"bound_steps", own.drafts.size()}};
  if (datastore_) row["bound_datastore"] = copy_oracle_bound(o.runs_datastore, curve).speedup();
  row["ceiling"] = speedup_ceiling(curve);
  outputs_.push_back(std::move(o));
  return row;
}

BoundTable::SetTotals BoundTable::price(
    const std::string& set, const std::function<CostCurve(int context)>& curve_at) const {
  SetTotals t;
  for (const Output& o : outputs_) {
    if (o.set != set) continue;
    const CostCurve curve = curve_at(o.context);
    const CopyBound own = copy_oracle_bound(o.runs, curve);
    t.ar_cost += own.ar_cost;
    t.cost += own.cost;
    if (datastore_) t.cost_datastore += copy_oracle_bound(o.runs_datastore, curve).cost;
    t.ceilings.push_back(speedup_ceiling(curve));
  }
  return t;
}

json BoundTable::set_bounds(const SetTotals& t) const {
  json b = {{"bound", t.cost > 0 ? t.ar_cost / t.cost : 1.0}, {"ceiling", median(t.ceilings)}};
  b["bound_datastore"] =
      datastore_ ? json(t.cost_datastore > 0 ? t.ar_cost / t.cost_datastore : 1.0) : json(nullptr);
  return b;
}

std::string BoundTable::annotate(json& summary,
                                 const std::map<std::string, CostCurve>& steps_paid) const {
  std::vector<std::string> sets;  // in order of their first output
  for (const Output& o : outputs_)
    if (std::find(sets.begin(), sets.end(), o.set) == sets.end()) sets.push_back(o.set);
  // Each set's bounds under the profile's curve, and under the steps this run paid.
  std::map<std::string, json> profile_bounds, paid_bounds;
  for (const std::string& set : sets) {
    profile_bounds[set] = set_bounds(price(set, curve_at_));
    const auto paid = steps_paid.find(set);
    if (paid == steps_paid.end() || paid->second.points().size() < 2) continue;
    const CostCurve& in_place = paid->second;
    paid_bounds[set] = set_bounds(price(set, [&](int context) {
      return with_steps_in_place(CostModel({{context, curve_at_(context)}}), in_place).at(context);
    }));
  }
  std::vector<std::string> methods;  // drafting methods, in summary order
  for (json& row : summary) {
    const std::string set = row["set"].get<std::string>();
    if (!profile_bounds.count(set)) continue;
    const double speedup = row["speedup"].get<double>();
    const auto put = [&](const json& b, const std::string& suffix) {
      row["bound" + suffix] = b["bound"];
      row["bound_datastore" + suffix] = b["bound_datastore"];
      row["ceiling" + suffix] = b["ceiling"];
      row["fraction_of_bound" + suffix] = speedup / b["bound"].get<double>();
      if (datastore_)
        row["fraction_of_bound_datastore" + suffix] = speedup / b["bound_datastore"].get<double>();
    };
    put(profile_bounds.at(set), "");
    if (paid_bounds.count(set)) put(paid_bounds.at(set), "_paid");
    const std::string m = row["method"];
    if (!is_no_draft_baseline(m) && std::find(methods.begin(), methods.end(), m) == methods.end())
      methods.push_back(m);
  }

  const auto table = [&](const std::string& title, const std::map<std::string, json>& bounds,
                         const std::string& suffix) {
    std::string md = "\n" + title + "; share = speedup / bound" +
                     std::string(datastore_ ? ", without / with the datastore" : "") +
                     ":\n\n| set | bound (prompt + output) | bound (+ datastore) | ceiling |";
    for (const std::string& m : methods) md += " " + m + " share |";
    md += "\n|---|---|---|---|";
    for (size_t i = 0; i < methods.size(); ++i) md += "---|";
    md += "\n";
    for (const std::string& set : sets) {
      if (!bounds.count(set)) continue;
      const json& b = bounds.at(set);
      md +=
          fmt::format("| {} | {:.2f}x | {} | {:.2f}x |", set, b["bound"].get<double>(),
                      datastore_ ? fmt::format("{:.2f}x", b["bound_datastore"].get<double>()) : "-",
                      b["ceiling"].get<double>());
      for (const std::string& m : methods) {
        std::string cell = " - |";
        for (const json& row : summary)
          if (row["set"] == set && row["method"] == m)
            cell = datastore_ ? fmt::format(
                                    " {:.0f}% / {:.0f}% |",
                                    100 * row["fraction_of_bound" + suffix].get<double>(),
                                    100 * row["fraction_of_bound_datastore" + suffix].get<double>())
                              : fmt::format(" {:.0f}% |",
                                            100 * row["fraction_of_bound" + suffix].get<double>());
        md += cell;
      }
      md += "\n";
    }
    return md;
  };
  std::string md = table(
      "Copy-oracle bound (the speedup over AR an oracle copier would reach) under the profile's "
      "cost curve",
      profile_bounds, "");
  if (!paid_bounds.empty())
    md += table(
        "The same bound priced by the verification steps this run paid, per set, against its "
        "autoregressive steps (sizes seen " +
            std::to_string(StepTimes::kEnoughSteps) + " times or more, the profile's shape beyond)",
        paid_bounds, "_paid");
  return md;
}

}  // namespace reader::cli
