#include "bench_report.h"

#include <fmt/format.h>

#include <algorithm>

namespace reader {
namespace {

// Text as SVG (XML) character data: names come from users' prompt files.
std::string xml(std::string_view s) {
  std::string out;
  for (char ch : s) {
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '\'':
        out += "&apos;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += ch;
    }
  }
  return out;
}

}  // namespace

std::string render_svg(const BarChart& c) {
  const int w = 900, h = 420, left = 60, right = 160, top = 40, bottom = 50;
  double vmax = c.reference_line;
  for (const auto& [s, m] : c.value)
    for (const auto& [cat, v] : m) vmax = std::max(vmax, v);
  vmax = vmax <= 0 ? 1 : vmax * 1.1;
  const double plot_w = w - left - right, plot_h = h - top - bottom;
  const auto y = [&](double v) { return top + plot_h * (1 - v / vmax); };
  static const char* colors[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759",
                                 "#76b7b2", "#edc948", "#b07aa1"};
  std::string svg = fmt::format(
      "<svg xmlns='http://www.w3.org/2000/svg' width='{}' height='{}' font-family='sans-serif' "
      "font-size='12'>\n"
      "<rect width='100%' height='100%' fill='white'/>\n<text x='{}' y='22' "
      "font-size='15'>{}</text>\n",
      w, h, left, xml(c.title));
  for (int i = 0; i <= 5; ++i) {  // y grid
    const double v = vmax * i / 5;
    svg += fmt::format(
        "<line x1='{}' x2='{}' y1='{:.1f}' y2='{:.1f}' stroke='#ddd'/><text x='{}' y='{:.1f}' "
        "text-anchor='end'>{:.2f}</text>\n",
        left, left + plot_w, y(v), y(v), left - 6, y(v) + 4, v);
  }
  svg += fmt::format(
      "<text x='14' y='{}' transform='rotate(-90 14 {})' text-anchor='middle'>{}</text>\n",
      top + plot_h / 2, top + plot_h / 2, xml(c.y_label));
  const double group_w = plot_w / std::max<size_t>(1, c.categories.size());
  const double bar_w = group_w * 0.8 / std::max<size_t>(1, c.series.size());
  for (size_t g = 0; g < c.categories.size(); ++g) {
    const double gx = left + g * group_w + group_w * 0.1;
    for (size_t s = 0; s < c.series.size(); ++s) {
      auto it = c.value.find(c.series[s]);
      if (it == c.value.end() || !it->second.count(c.categories[g])) continue;
      const double v = it->second.at(c.categories[g]);
      svg += fmt::format(
          "<rect x='{:.1f}' y='{:.1f}' width='{:.1f}' height='{:.1f}' fill='{}'/>"
          "<text x='{:.1f}' y='{:.1f}' text-anchor='middle' font-size='10'>{:.2f}</text>\n",
          gx + s * bar_w, y(v), bar_w - 2, top + plot_h - y(v), colors[s % 7],
          gx + s * bar_w + bar_w / 2, y(v) - 3, v);
    }
    svg += fmt::format("<text x='{:.1f}' y='{}' text-anchor='middle'>{}</text>\n",
                       gx + group_w * 0.4, top + plot_h + 18, xml(c.categories[g]));
  }
  if (c.reference_line > 0)
    svg += fmt::format(
        "<line x1='{}' x2='{}' y1='{:.1f}' y2='{:.1f}' stroke='black' stroke-dasharray='5,4'/>\n",
        left, left + plot_w, y(c.reference_line), y(c.reference_line));
  for (size_t s = 0; s < c.series.size(); ++s)
    svg += fmt::format(
        "<rect x='{}' y='{}' width='12' height='12' fill='{}'/><text x='{}' y='{}'>{}</text>\n",
        w - right + 15, top + 20 * s, colors[s % 7], w - right + 32, top + 20 * s + 10,
        xml(c.series[s]));
  return svg + "</svg>\n";
}

}  // namespace reader
