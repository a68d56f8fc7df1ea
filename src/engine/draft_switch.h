// DraftSwitch: whether drafting pays at the current batch size, learned from measured speed.
//
// For one sequence the drafter's own cost model decides (calibrated, Theorem 1). With many,
// the batch's cost is harder to predict (stream splits, attention over other sequences'
// lengths), so the engine measures: per batch-size bucket (2-3, 4-7, 8-15, ... decoding
// sequences), an average of emitted tokens per second over steps with drafts and over steps
// without. It drafts when drafting has been clearly faster, and tries the other mode one
// step in 32 so both averages follow the load. Steps that carry prompt tokens are not
// counted. Where the cost curve says the machine is saturated it never drafts.
#pragma once

#include <array>

namespace reader {

class DraftSwitch {
 public:
  // Whether this step should draft, with `decoding` sequences generating. `saturated`: the
  // cost curve says the machine is busy (see Engine::step): no drafting at all.
  bool choose(int decoding, bool saturated);
  // A finished step without prompt tokens: it emitted `tokens` in `seconds`.
  void record(int decoding, bool drafted, int tokens, double seconds);

 private:
  struct Bucket {
    double tokens_per_second[2] = {0, 0};  // [drafted] moving average
    int samples[2] = {0, 0};               // [drafted] steps measured
    unsigned steps = 0;                    // choose() calls
  };
  static int bucket(int decoding);
  std::array<Bucket, 10> buckets_;
};

}  // namespace reader
