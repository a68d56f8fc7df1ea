// The batched engine on the real model: every request's output, and every logits row its
// policy used, equal the same request run alone, bit for bit; no cells or ids leak.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "model_fixture.h"
#include "reader/engine.h"
#include "reader/methods.h"
#include "reader/speculative.h"
#include "test_profile_fixture.h"

namespace reader::test {
namespace {

// One KV stream per sequence: the layout that keeps batched outputs exact.
Model& stream_model(int sequences) {
  static std::map<int, std::unique_ptr<Model>> cache;
  auto& slot = cache[sequences];
  if (!slot) {
    ModelOptions o;
    o.path = default_model_path();
    o.n_seq_max = sequences;
    o.n_ctx = 1024;
    o.kv_unified = false;
    slot = Model::load(o);
  }
  return *slot;
}

std::vector<Tokens> test_prompts(const Model& m) {
  const char* texts[] = {
      "Write a Python function that checks whether a number is prime.",
      "List three facts about the Moon.",
      "Explain what a hash table is in two sentences.",
      "Repeat after me: the quick brown fox jumps over the lazy dog. The quick brown fox",
      "Write a haiku about autumn.",
      "What is 17 times 23? Show your steps.",
  };
  std::vector<Tokens> out;
  for (const char* t : texts) out.push_back(m.tokenize(m.apply_chat_template(t), true, true));
  return out;
}

struct Recorded {
  GenerationResult result;
  std::map<int, std::vector<float>> rows;  // logits row the policy used per output position
};

// Runs `prompts` through one engine with `sequences` slots; each request its own drafter.
std::vector<Recorded> run_batched(Model& m, const std::vector<Tokens>& prompts,
                                  const GenerationOptions& opts, Method method, int sequences) {
  const Profile profile = calibrated_profile(m);
  const CostModel cost = cost_model_for(m, &profile);
  EngineOptions eo;
  eo.max_sequences = sequences;
  eo.cost = &cost;
  Engine engine(m, eo);
  std::vector<Recorded> out(prompts.size());
  for (size_t i = 0; i < prompts.size(); ++i) {
    Request r;
    r.prompt = prompts[i];
    r.options = opts;
    auto& rec = out[i];
    r.options.on_logits = [&rec, &m](int pos, const float* l) {
      rec.rows[pos].assign(l, l + m.n_vocab());
    };
    MethodConfig config{method};
    config.profile = &profile;
    r.owned_drafter = make_drafter(m, config);
    r.on_done = [&rec](GenerationResult g) { rec.result = std::move(g); };
    engine.submit(std::move(r));
  }
  engine.run_until_idle();
  const EngineSnapshot snap = engine.snapshot();
  EXPECT_EQ(snap.running, 0);
  EXPECT_EQ(snap.waiting, 0);
  return out;
}

Recorded run_alone(Model& m, const Tokens& prompt, GenerationOptions opts) {
  Recorded rec;
  opts.on_logits = [&rec, &m](int pos, const float* l) {
    rec.rows[pos].assign(l, l + m.n_vocab());
  };
  rec.result = generate_autoregressive(m, prompt, opts);
  return rec;
}

void expect_same(const Recorded& alone, const Recorded& batched, size_t i) {
  EXPECT_EQ(alone.result.tokens, batched.result.tokens) << "prompt " << i;
  EXPECT_EQ(alone.result.stop_reason, batched.result.stop_reason) << "prompt " << i;
  for (const auto& [pos, row] : alone.rows) {
    auto it = batched.rows.find(pos);
    ASSERT_NE(it, batched.rows.end()) << "prompt " << i << " position " << pos;
    EXPECT_EQ(row, it->second) << "prompt " << i << ": logits differ at position " << pos;
  }
}

// Six prompts through four sequences at once, each compared with the same prompt alone.
void expect_batched_equals_alone(Method method, const GenerationOptions& opts) {
  Model& solo = shared_model("smollm2");
  const auto prompts = test_prompts(solo);
  const auto batched = run_batched(stream_model(4), prompts, opts, method, 4);
  for (size_t i = 0; i < prompts.size(); ++i)
    expect_same(run_alone(solo, prompts[i], opts), batched[i], i);
}

class EngineTest : public ::testing::TestWithParam<Method> {};

TEST_P(EngineTest, BatchedGreedyEqualsAloneBitwise) {
  GenerationOptions opts;
  opts.max_tokens = 48;
  expect_batched_equals_alone(GetParam(), opts);
}

TEST_P(EngineTest, BatchedSamplingEqualsAlone) {
  GenerationOptions opts;
  opts.max_tokens = 40;
  opts.sampling.temperature = 0.8f;
  opts.sampling.seed = 11;
  expect_batched_equals_alone(GetParam(), opts);
}

INSTANTIATE_TEST_SUITE_P(Methods, EngineTest,
                         ::testing::Values(Method::kAutoregressive, Method::kReader),
                         [](const auto& info) { return std::string(to_string(info.param)); });

TEST(EngineLifecycle, CancelFreesCellsAndIds) {
  Model& m = stream_model(4);
  const auto prompts = test_prompts(m);
  EngineOptions eo;
  eo.max_sequences = 2;
  eo.reuse_prefix = false;
  Engine engine(m, eo);
  std::vector<StopReason> reasons(prompts.size(), StopReason::kMaxTokens);
  std::vector<RequestId> ids;
  for (size_t i = 0; i < prompts.size(); ++i) {
    Request r;
    r.prompt = prompts[i];
    r.options.max_tokens = 64;
    r.on_done = [&reasons, i](GenerationResult g) { reasons[i] = g.stop_reason; };
    ids.push_back(engine.submit(std::move(r)));
  }
  for (int k = 0; k < 5; ++k) engine.step();
  engine.cancel(ids[0]);  // running
  engine.cancel(ids[5]);  // still waiting
  engine.run_until_idle();
  EXPECT_EQ(reasons[0], StopReason::kCancelled);
  EXPECT_EQ(reasons[5], StopReason::kCancelled);
  EXPECT_NE(reasons[1], StopReason::kCancelled);
  const EngineSnapshot snap = engine.snapshot();
  EXPECT_EQ(snap.kv_cells, 0);
  EXPECT_EQ(snap.running, 0);
  for (int s = 0; s < m.n_seq_max(); ++s) EXPECT_EQ(m.kv_pos_max(s), -1) << "sequence " << s;
}

TEST(EngineLifecycle, PromptCacheReusesCellsAndKeepsOutputExact) {
  Model& m = stream_model(4);
  Model& solo = shared_model("smollm2");
  const auto prompts = test_prompts(m);
  EngineOptions eo;
  eo.max_sequences = 2;
  Engine engine(m, eo);
  GenerationOptions opts;
  opts.max_tokens = 24;
  std::vector<GenerationResult> results;
  // A conversation's next turn shares the previous prompt and answer as its prefix.
  Tokens second = prompts[0];
  for (int turn = 0; turn < 2; ++turn) {
    Request r;
    r.prompt = turn == 0 ? prompts[0] : second;
    r.options = opts;
    r.on_done = [&](GenerationResult g) { results.push_back(std::move(g)); };
    engine.submit(std::move(r));
    engine.run_until_idle();
    if (turn == 0) {
      second.insert(second.end(), results[0].tokens.begin(), results[0].tokens.end());
      const Tokens more = m.tokenize("\nAnd one more thing?", false, true);
      second.insert(second.end(), more.begin(), more.end());
    }
  }
  EXPECT_GE(engine.snapshot().prefix_reused, prompts[0].size());
  EXPECT_EQ(results[1].tokens, generate_autoregressive(solo, second, opts).tokens);
}

// llama.cpp decodes only consecutive sequence ids of per-sequence KV streams in one pass, so
// a joining request should sit next to running ones, not wherever the smallest cache is.
TEST(EngineLifecycle, JoiningRequestsSitNextToRunningOnes) {
  Model& m = stream_model(4);
  EngineOptions eo;
  eo.max_sequences = 4;
  Engine engine(m, eo);
  // Four unrelated prompts (no shared first token) fill slots 0-3 and stay cached there,
  // smallest in slot 0, then slot 2.
  const auto prompt = [](Token first, int length) {
    Tokens t;
    for (int i = 0; i < length; ++i) t.push_back(first + i);
    return t;
  };
  const auto request = [](Tokens tokens, int max_tokens) {
    Request r;
    r.prompt = std::move(tokens);
    r.options.max_tokens = max_tokens;
    return r;
  };
  for (auto [first, length] : {std::pair{1000, 10}, {2000, 40}, {3000, 12}, {4000, 50}})
    engine.submit(request(prompt(first, length), 1));
  engine.run_until_idle();
  std::vector<int> before;
  for (int s = 0; s < 4; ++s) before.push_back(m.kv_pos_max(s));
  ASSERT_LT(before[0], before[2]);
  ASSERT_LT(before[2], before[1]);
  // Two new unrelated requests: the first takes the smallest cache (slot 0); the second
  // takes slot 1, beside it, although slot 2 caches less.
  engine.submit(request(prompt(5000, 16), 8));
  engine.submit(request(prompt(6000, 16), 8));
  engine.step();
  EXPECT_NE(m.kv_pos_max(0), before[0]);
  EXPECT_NE(m.kv_pos_max(1), before[1]);
  EXPECT_EQ(m.kv_pos_max(2), before[2]);
  EXPECT_EQ(m.kv_pos_max(3), before[3]);
  engine.run_until_idle();
}

// Requests that end at different steps leave free slots between running ones, and llama.cpp
// decodes each run of consecutive sequence ids in a pass of its own: the engine moves the
// highest running sequence down into the gap. A moved request's output, and every logits row
// its policy used, must still equal the request run alone. Here: four requests with these
// lengths through one engine with a stream per sequence and no prefix cache (free slots cache
// nothing, so gaps may be closed); no cell may be left behind. Returns how many moves were made.
std::uint64_t run_four_checked(const int (&max_tokens)[4]) {
  Model& solo = shared_model("smollm2");
  Model& m = stream_model(4);
  const auto prompts = test_prompts(solo);
  EngineOptions eo;
  eo.max_sequences = 4;
  eo.reuse_prefix = false;
  Engine engine(m, eo);
  std::vector<Recorded> batched(4);
  for (size_t i = 0; i < 4; ++i) {
    Request r;
    r.prompt = prompts[i];
    r.options.max_tokens = max_tokens[i];
    auto& rec = batched[i];
    r.options.on_logits = [&rec, &m](int pos, const float* l) {
      rec.rows[pos].assign(l, l + m.n_vocab());
    };
    r.on_done = [&rec](GenerationResult g) { rec.result = std::move(g); };
    engine.submit(std::move(r));
  }
  engine.run_until_idle();
  for (size_t i = 0; i < 4; ++i) {
    GenerationOptions opts;
    opts.max_tokens = max_tokens[i];
    expect_same(run_alone(solo, prompts[i], opts), batched[i], i);
  }
  for (int s = 0; s < 4; ++s) EXPECT_EQ(m.kv_pos_max(s), -1) << "sequence " << s;
  return engine.snapshot().moves;
}

TEST(EngineLifecycle, MovedRequestsStayExact) {
  // Slot 0 frees first (1, 2, 3 still count up by one: nothing moves), then slot 2: 3 moves to 2.
  EXPECT_EQ(run_four_checked({4, 40, 8, 40}), 1u);
}

TEST(EngineLifecycle, ConsecutiveRequestsStayPut) {
  // Running ids 1, 2, 3, then 1, 2, share one forward pass as they are: a move would only
  // cost a copy (the rule before session 33 moved 3 into 0).
  EXPECT_EQ(run_four_checked({2, 24, 24, 8}), 0u);
}

// A drafter that drafts nothing and keeps the step times the engine reports to it.
class StepTimeLog : public Drafter {
 public:
  void begin(TokenSpan) override {}
  DraftTree draft(TokenSpan context, int) override { return DraftTree(context.back(), 1); }
  void observe(const DraftTree&, const NodeLogits&) override {}
  void observe_step_time(int tokens, double ms) override { steps.push_back({tokens, ms}); }
  void feedback(const DraftTree&, const std::vector<int>&) override {}
  void commit(TokenSpan) override {}
  std::vector<std::pair<int, double>> steps;  // (tokens, ms) per reported step
};

// A step's decode time reaches the drafter when the decode was its sequence's alone (the
// price a policy can learn from), and never while other sequences share the decode.
TEST(EngineLifecycle, DraftersHearTheTimesOfDecodesTheyHadAlone) {
  Model& solo = shared_model("smollm2");
  const auto prompts = test_prompts(solo);
  GenerationOptions opts;
  opts.max_tokens = 12;
  StepTimeLog alone;
  const GenerationResult r = generate_speculative(solo, prompts[1], opts, alone);
  ASSERT_EQ(std::ssize(alone.steps), r.stats.steps);
  for (const auto& [tokens, ms] : alone.steps) {
    EXPECT_EQ(tokens, 1);
    EXPECT_GT(ms, 0.0);
  }

  Model& m = stream_model(2);
  EngineOptions eo;
  eo.max_sequences = 2;
  Engine engine(m, eo);
  StepTimeLog first, second;
  for (StepTimeLog* log : {&first, &second}) {
    Request req;
    req.prompt = prompts[1];
    req.options = opts;
    req.drafter = log;
    engine.submit(std::move(req));
  }
  engine.run_until_idle();
  // Both started together and ran the same length: no step was ever theirs alone.
  EXPECT_TRUE(first.steps.empty());
  EXPECT_TRUE(second.steps.empty());
}

}  // namespace
}  // namespace reader::test
