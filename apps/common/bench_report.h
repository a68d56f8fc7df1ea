// Summaries and pictures of benchmark runs: medians, ratio-of-medians speedups, a
// markdown table and an SVG bar chart (no plotting dependency needed).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "util/median.h"

namespace reader {

// One bar group per category (e.g. prompt set), one bar per series (e.g. method).
struct BarChart {
  std::string title;
  std::string y_label;
  std::vector<std::string> categories;
  std::vector<std::string> series;
  std::map<std::string, std::map<std::string, double>> value;  // [series][category]
  double reference_line = 0;  // drawn dashed when > 0 (e.g. speedup 1.0)
};
std::string render_svg(const BarChart& chart);

}  // namespace reader
