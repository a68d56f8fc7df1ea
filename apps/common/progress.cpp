#include "progress.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace reader {

ProgressBar::ProgressBar(std::string label)
    : label_(std::move(label)),
      tty_(::isatty(STDERR_FILENO) != 0),
      start_(std::chrono::steady_clock::now()) {}

void ProgressBar::update(double fraction, const std::string& note) {
  fraction = std::clamp(fraction, 0.0, 1.0);
  const auto now = std::chrono::steady_clock::now();
  const double secs = std::chrono::duration<double>(now - start_).count();
  if (tty_) {
    if (now - last_draw_ < std::chrono::milliseconds(100) && fraction < 1.0) return;
    last_draw_ = now;
    const int width = 30, filled = static_cast<int>(fraction * width);
    std::fprintf(stderr, "\r%s [%s%s] %3.0f%% %5.1fs %s\033[K", label_.c_str(),
                 std::string(static_cast<size_t>(filled), '#').c_str(),
                 std::string(static_cast<size_t>(width - filled), '.').c_str(), fraction * 100,
                 secs, note.c_str());
  } else {
    const int decile = static_cast<int>(fraction * 10);
    if (decile == last_decile_) return;
    last_decile_ = decile;
    std::fprintf(stderr, "%s %3d%% %5.1fs %s\n", label_.c_str(), decile * 10, secs, note.c_str());
  }
  std::fflush(stderr);
}

void ProgressBar::finish(const std::string& note) {
  last_decile_ = -1;
  last_draw_ = {};
  update(1.0, note);
  if (tty_) std::fputc('\n', stderr);
}

long long peak_rss_bytes() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<long long>(ru.ru_maxrss) * 1024;
}

}  // namespace reader
