// Over a long run (more than a thousand verification steps of READER on one model and one
// small KV cache) no sequence id and no cell leaks: after every generation the cache holds
// sequence 0 over exactly the committed positions and nothing else.
#include <gtest/gtest.h>

#include "model_fixture.h"
#include "prompt_sets.h"
#include "reader/methods.h"

namespace reader::test {
namespace {

TEST(KvCacheLongRun, NothingLeaksOverThousandsOfSteps) {
  // 1024 cells: leaked cells would exhaust it within a few generations and make decode fail.
  Model& m = shared_model("smollm2", 64, 1024);
  Generator reader(m, {Method::kReader, {}, nullptr, nullptr});
  int steps = 0, generations = 0;
  for (int round = 0; steps < 1000 && round < 8; ++round) {
    for (const std::string& set : prompt_set_names()) {
      for (const PromptItem& item : load_prompt_set(set, default_data_dir(), 2)) {
        const Tokens prompt = m.tokenize(m.apply_chat_template(item.user), true, true);
        if (prompt.size() > 600) continue;
        GenerationOptions opts;
        opts.max_tokens = 256;
        if (round % 2) opts.sampling = {0.8f, 40, 0.95f, static_cast<uint64_t>(round)};
        const GenerationResult r = reader.run(prompt, opts);
        steps += r.stats.steps;
        ++generations;
        // Prompt and output, less the last token or two (emitted, not yet decoded); plus
        // an EOS when one was accepted inside a drafted path (it is not in r.tokens).
        const int emitted = static_cast<int>(prompt.size() + r.tokens.size());
        EXPECT_EQ(m.kv_pos_min(0), 0) << item.id;
        EXPECT_GE(m.kv_pos_max(0), emitted - 3) << item.id;
        EXPECT_LE(m.kv_pos_max(0), emitted) << item.id;
        for (int s = 1; s < m.n_seq_max(); ++s)
          ASSERT_EQ(m.kv_pos_max(s), -1) << "sequence " << s << " leaked after " << item.id;
      }
    }
  }
  std::printf("KV long run: %d generations, %d verification steps\n", generations, steps);
  EXPECT_GE(steps, 1000);
}

}  // namespace
}  // namespace reader::test
