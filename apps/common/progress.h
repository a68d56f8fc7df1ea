// A one-line progress bar on stderr for long commands (datastore builds, benchmarks).
// On a terminal it redraws in place; otherwise (CI logs) it prints a line every 10%.
#pragma once

#include <chrono>
#include <string>

namespace reader {

class ProgressBar {
 public:
  explicit ProgressBar(std::string label);
  // fraction in [0, 1]; note is shown after the bar (e.g. "12.3 MB tokenized").
  void update(double fraction, const std::string& note = "");
  void finish(const std::string& note = "");

 private:
  std::string label_;
  bool tty_;
  int last_decile_ = -1;
  std::chrono::steady_clock::time_point last_draw_{};
  std::chrono::steady_clock::time_point start_;
};

// Peak resident memory of this process so far, in bytes.
long long peak_rss_bytes();

}  // namespace reader
