#include "engine/draft_switch.h"

#include <algorithm>
#include <bit>

namespace reader {

int DraftSwitch::bucket(int decoding) {
  return std::min<int>(9, std::bit_width(static_cast<unsigned>(std::max(decoding, 1))) - 1);
}

bool DraftSwitch::choose(int decoding, bool saturated) {
  if (decoding <= 1) return true;  // alone: the drafter's calibrated policy decides
  if (saturated) return false;
  Bucket& b = buckets_[static_cast<size_t>(bucket(decoding))];
  ++b.steps;
  constexpr int kWarmup = 4;  // steps of each mode before trusting the averages
  if (b.samples[0] < kWarmup || b.samples[1] < kWarmup) return b.samples[1] <= b.samples[0];
  // Drafting must win clearly: its steps are noisier, and a wrong "on" costs more than a
  // wrong "off" (batched AR is the floor we promise).
  const bool better = b.tokens_per_second[1] > 1.05 * b.tokens_per_second[0];
  return b.steps % 32 == 0 ? !better : better;
}

void DraftSwitch::record(int decoding, bool drafted, int tokens, double seconds) {
  if (decoding <= 1 || seconds <= 0) return;
  Bucket& b = buckets_[static_cast<size_t>(bucket(decoding))];
  const int mode = drafted ? 1 : 0;
  const double tps = tokens / seconds;
  // Plain mean while warming up, then a moving average (the load and contexts drift).
  const double w = b.samples[mode] < 8 ? 1.0 / (b.samples[mode] + 1) : 0.125;
  b.tokens_per_second[mode] += w * (tps - b.tokens_per_second[mode]);
  ++b.samples[mode];
}

}  // namespace reader
