// What the shipped profile's batch prices say a step of 8 sequences costs, per tokens each,
// over a step of one token each, at the contexts batched bench prompts reach (compare the
// step log's measured 1.59 for two tokens each). Build as session 32's probes (HOWTO.md).
#include <cstdio>

#include "reader/profile.h"

int main(int argc, char** argv) {
  const reader::Profile p = reader::load_profile(
      argc > 1 ? argv[1] : "models/SmolLM2-135M-Instruct.Q8_0.profile.json");
  for (int context : {256, 512, 768, 1024}) {
    const auto pass = p.cost.passes_at(context);
    std::printf("context %4d  B=8: k=2 %.2f  k=3 %.2f   B=4: k=2 %.2f   B=2: k=2 %.2f\n", context,
                pass(8, 2) / pass(8, 1), pass(8, 3) / pass(8, 1), pass(4, 2) / pass(4, 1),
                pass(2, 2) / pass(2, 1));
  }
}
