// The tree policy with the real model: cautious where nothing repeats, long chains where
// the answer is a copy. Deterministic (fixed cost curve and priors), not timed.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "lossless_check.h"
#include "reader/draft_trace.h"
#include "reader/verify.h"
#include "test_profile_fixture.h"

namespace reader::test {
namespace {

const char* kPassage =
    "The lighthouse stood on a narrow spit of rock at the mouth of the harbour. Every evening "
    "the keeper climbed the one hundred and twelve steps, trimmed the wick, polished the great "
    "lens and wrote the weather in a leather logbook. Ships from the north used its beam to "
    "find the channel between the sandbanks, and the fishermen of the village said that as long "
    "as the light turned, nobody would be lost at sea.";

// A retrieval-only drafter whose profile rates every node 0.9: what the policy still refuses
// to verify is refused whatever the calibration says. (make_drafter copies what it needs
// from the profile.)
std::unique_ptr<Drafter> sure_retrieval_drafter(Model& m) {
  const Profile sure = fixed_profile(m, 0.9);
  MethodConfig config{Method::kRetrieval, std::nullopt, nullptr, nullptr};
  config.profile = &sure;
  config.adapt_cost = false;  // drafting as the profile prices it, whatever the hour
  return make_drafter(m, config);
}

// The passage's first sentence, as a continuation (a leading space, no BOS).
Tokens lighthouse_sentence(Model& m) {
  return m.tokenize(" the lighthouse stood on a narrow spit of rock at the mouth of the harbour",
                    false);
}

TEST(DraftPolicy, LowAcceptanceProfileDraftsAlmostNothingWithoutRepetition) {
  Model& m = shared_model("smollm2", 64, 4096);
  const Profile low = fixed_profile(m, 0.05);
  MethodConfig config{Method::kReader, std::nullopt, shared_datastore("smollm2"), nullptr};
  config.profile = &low;
  config.adapt_cost = false;  // drafting as the profile prices it, whatever the hour
  Generator reader(m, config);
  // The passage's tokens shuffled: no phrase in the prompt continues the way it did.
  Tokens prompt = m.tokenize(kPassage, true);
  std::mt19937 rng(1);
  std::shuffle(prompt.begin() + 1, prompt.end(), rng);
  GenerationOptions opts;
  opts.max_tokens = 64;
  const GenerationResult r = reader.run(prompt, opts);
  ASSERT_GT(r.stats.steps, 0);
  const double drafted_per_step = static_cast<double>(r.stats.drafted_tokens) / r.stats.steps;
  EXPECT_LE(drafted_per_step, 0.5) << r.stats.drafted_tokens << " drafted in " << r.stats.steps;
}

// Greedy, a drafted token is accepted when it is the model's top choice; sampling, only as
// often as the model samples it. With sampled priors that say "rarely", a sampled run drafts
// next to nothing where a greedy run with the same profile drafts.
TEST(DraftPolicy, SamplingUsesTheSampledPriors) {
  Model& m = shared_model("smollm2", 64, 4096);
  Profile p = fixed_profile(m, 0.9);
  for (int cell = 0; cell < AcceptanceCounts::kCells; ++cell)
    p.acceptance_sampled.set(cell, 0.02 * 200, 200);
  p.sampled_temperature = 0.8;
  MethodConfig config{Method::kReader, std::nullopt, shared_datastore("smollm2"), nullptr};
  config.profile = &p;
  config.adapt_cost = false;  // drafting as the profile prices it, whatever the hour
  Generator reader(m, config);
  const Tokens prompt = m.tokenize(m.apply_chat_template("Name three colours."), true, true);
  GenerationOptions opts;
  opts.max_tokens = 32;
  const GenerationResult greedy = reader.run(prompt, opts);
  opts.sampling.temperature = 0.8f;
  opts.sampling.seed = 3;
  const GenerationResult sampled = reader.run(prompt, opts);
  ASSERT_GT(greedy.stats.steps, 0);
  ASSERT_GT(sampled.stats.steps, 0);
  EXPECT_GE(static_cast<double>(greedy.stats.drafted_tokens) / greedy.stats.steps, 1.0);
  EXPECT_LE(static_cast<double>(sampled.stats.drafted_tokens) / sampled.stats.steps, 0.5);
  // And back: the greedy priors return for the next greedy run.
  opts.sampling.temperature = 0;
  const GenerationResult again = reader.run(prompt, opts);
  EXPECT_EQ(again.tokens, greedy.tokens);
  EXPECT_GE(static_cast<double>(again.stats.drafted_tokens) / again.stats.steps, 1.0);
}

// The measured cost is what the policy trusts, so noise must not make it say that drafting
// got cheaper: c(n, L) is non-decreasing in n and in the context L, whatever the timings.
TEST(DraftPolicy, MeasuredCostNeverFallsWithSizeOrContext) {
  Model& m = shared_model("smollm2", 64, 4096);
  CostProbe probe;
  probe.contexts = {64, 128, 256};
  probe.sizes = {1, 2, 4, 8};
  probe.repeats = 1;
  CostTimings timings;  // what bench --cost-curve prints: one median per context and size
  const CostModel cost = measure_cost_model(m, probe, {}, &timings);
  ASSERT_EQ(cost.curves().size(), 3u);
  EXPECT_EQ(timings.contexts, probe.contexts);
  ASSERT_EQ(timings.median_ms.size(), 3u);
  for (const std::vector<double>& row : timings.median_ms) {
    ASSERT_EQ(row.size(), probe.sizes.size());
    for (double ms : row) EXPECT_GT(ms, 0.0);
  }
  for (size_t k = 0; k < cost.curves().size(); ++k) {
    const CostCurve& curve = cost.curves()[k].curve;
    EXPECT_DOUBLE_EQ(curve(1), 1.0);
    for (int n : {2, 4, 8}) {
      EXPECT_GE(curve(n), curve(n / 2));
      if (k > 0) {
        EXPECT_GE(curve(n), cost.curves()[k - 1].curve(n));
      }
    }
  }
}

// The batch table the engine prices batched steps with: measured on a model that keeps one
// stream per sequence, rising with tokens per sequence and with sequences; refused on a
// unified cache, whose costs are not the engine's.
TEST(DraftPolicy, MeasuredBatchCostRisesWithTokensAndSequences) {
  Model& unified = shared_model("smollm2", 64, 4096);
  BatchProbe probe;
  probe.sequences = {2, 4};
  probe.each = {1, 2, 4};
  probe.max_tokens = 8;
  probe.context = 64;
  probe.repeats = 1;
  CostModel cost = fallback_cost_model();
  EXPECT_THROW(measure_batch_cost(unified, probe, cost), std::invalid_argument);
  ModelOptions mo = unified.options();
  mo.kv_unified = false;
  mo.n_seq_max = 4;
  mo.n_ctx = 128;
  auto streams = Model::load(mo);
  measure_batch_cost(*streams, probe, cost);
  ASSERT_EQ(cost.batch().size(), 2u);
  EXPECT_EQ(cost.batch()[0].sequences, 2);
  EXPECT_EQ(cost.batch()[1].curve.points().size(), 2u);  // 4 x 4 is over max_tokens
  for (const auto& b : cost.batch()) {
    const auto& points = b.curve.points();
    for (size_t i = 1; i < points.size(); ++i) EXPECT_GE(points[i].second, points[i - 1].second);
  }
  for (int k : {1, 2}) EXPECT_GE(cost.batch()[1].curve(k), cost.batch()[0].curve(k));
}

// In a shared decode the engine prices every sequence's draft together, so a drafter told
// it is batched hands over its whole best chain, scored by alpha, where alone it would cut
// the chain to what pays for one sequence.
TEST(DraftPolicy, BatchedDrafterLeavesTheCutToTheEngine) {
  Model& m = shared_model("smollm2", 64, 4096);
  const Profile modest = fixed_profile(m, 0.3);  // a drafted token pays alone only rarely
  MethodConfig config{Method::kReader, std::nullopt, shared_datastore("smollm2"), nullptr};
  config.profile = &modest;
  config.adapt_cost = false;  // drafting as the profile prices it, whatever the hour
  const Tokens prompt =
      m.tokenize(m.apply_chat_template(std::string("Summarise:\n\n") + kPassage), true, true);
  // The answer has begun to copy the passage: the trie continues it for many tokens.
  const Tokens opening = m.tokenize("The lighthouse stood on a narrow", false);
  Tokens context = prompt;
  context.insert(context.end(), opening.begin(), opening.end());
  const auto draft = [&](bool batched) {
    std::unique_ptr<Drafter> d = make_drafter(m, config);
    d->begin(prompt);
    d->commit(opening);
    d->set_batched(batched);
    return d->draft(context, 64);
  };
  const DraftTree alone = draft(false), batched = draft(true);
  ASSERT_TRUE(is_chain(batched));
  EXPECT_GT(batched.size(), alone.size());
  EXPECT_GE(batched.size(), 4);
  for (int n = 2; n < batched.size(); ++n) {  // alpha: never rises along the chain
    EXPECT_LE(batched.score(n), batched.score(n - 1));
    EXPECT_GT(batched.score(n), 0.0f);
  }
}

TEST(DraftPolicy, RepeatedPassageGetsLongChains) {
  Model& m = shared_model("smollm2", 64, 4096);
  const Profile cautious = fixed_profile(m, -1);  // no calibration: cautious defaults
  MethodConfig config{Method::kReader, std::nullopt, shared_datastore("smollm2"), nullptr};
  config.profile = &cautious;
  config.adapt_cost = false;  // drafting as the profile prices it, whatever the hour
  Generator reader(m, config);
  Generator ar(m, {Method::kAutoregressive, {}, nullptr, nullptr});
  const Tokens prompt = m.tokenize(
      m.apply_chat_template(std::string("Repeat the following text exactly, word for word.\n\n") +
                            kPassage),
      true, true);
  GenerationOptions opts;
  opts.max_tokens = 64;
  const GenerationResult a = ar.run(prompt, opts);
  const GenerationResult r = reader.run(prompt, opts);
  ASSERT_EQ(a.tokens, r.tokens) << "not lossless";
  const double drafted_per_step = static_cast<double>(r.stats.drafted_tokens) / r.stats.steps;
  EXPECT_GE(drafted_per_step, 3.0) << r.text;
  EXPECT_GE(r.stats.mean_accepted(), 2.5) << r.text;
}

// A draft model drafts one token per decode of its own. One that costs as much as the
// target cannot pay even for drafts that are always accepted, so it is not run at all (it
// used to run every step for nothing: 17.6 against 93.5 tok/s for AR); a cheap one is run and
// its drafts verified. The draft model here is a second instance of the target, so its drafts
// are the target's own choices; only the cost it is said to have differs.
GenerationResult run_draft_method(double draft_cost, Model& draft, const Tokens& prompt) {
  Model& m = shared_model("smollm2", 64, 4096);
  const Profile sure = fixed_profile(m, 0.9);
  MethodConfig config{Method::kDraft, std::nullopt, nullptr, &draft};
  config.profile = &sure;
  config.adapt_cost = false;  // drafting as the profile prices it, whatever the hour
  config.draft_cost = draft_cost;
  Generator gen(m, config);
  GenerationOptions opts;
  opts.max_tokens = 32;
  return gen.run(prompt, opts);
}

TEST(DraftPolicy, DraftModelRunsOnlyWhereItCanPay) {
  Model& m = shared_model("smollm2", 64, 4096);
  Model& draft = shared_model("smollm2", 16, 4096);
  const Tokens prompt = m.tokenize(m.apply_chat_template("Explain photosynthesis."), true, true);
  Generator ar(m, {Method::kAutoregressive, {}, nullptr, nullptr});
  GenerationOptions opts;
  opts.max_tokens = 32;
  const GenerationResult a = ar.run(prompt, opts);

  const GenerationResult dear = run_draft_method(1.0, draft, prompt);
  EXPECT_EQ(a.tokens, dear.tokens);
  EXPECT_EQ(dear.stats.drafted_tokens, 0);
  EXPECT_EQ(draft.kv_pos_max(0), -1) << "the draft model decoded although it cannot pay";

  const GenerationResult cheap = run_draft_method(0.02, draft, prompt);
  EXPECT_EQ(a.tokens, cheap.tokens);
  EXPECT_GE(draft.kv_pos_max(0), static_cast<int>(prompt.size()) - 1);
  EXPECT_GT(cheap.stats.accepted_by_source[static_cast<size_t>(DraftSource::kSpeculator)], 0);
  EXPECT_GT(cheap.stats.mean_accepted(), 1.5);
}

// A copy can run past the end of a text: here the prompt holds a sentence, an end of
// generation, then more text, and the context ends inside that sentence again. The drafter
// copies the sentence and may draft the end itself, but nothing after it.
TEST(DraftPolicy, NothingIsDraftedPastTheEndOfGeneration) {
  Model& m = shared_model("smollm2", 64, 4096);
  const std::unique_ptr<Drafter> drafter = sure_retrieval_drafter(m);
  Token end = 0;
  while (end < m.n_vocab() && !m.is_eog(end)) ++end;
  ASSERT_LT(end, m.n_vocab());
  const Tokens sentence = lighthouse_sentence(m);
  const Tokens after = m.tokenize(" every evening the keeper climbed the one hundred steps", false);
  Tokens prompt = sentence;
  prompt.push_back(end);
  prompt.insert(prompt.end(), after.begin(), after.end());
  prompt.insert(prompt.end(), sentence.begin(), sentence.end() - 3);  // the sentence again, cut
  drafter->begin(prompt);
  const DraftTree tree = drafter->draft(prompt, 64);
  ASSERT_GE(tree.size(), 4) << "the copy of the sentence's last 3 tokens was not drafted";
  for (int i = 1; i < tree.size(); ++i)
    EXPECT_FALSE(tree.parent(i) > 0 && m.is_eog(tree.token(tree.parent(i))))
        << "node " << i << " drafted after the end of generation";
}

// A token the model keeps rejecting in this text loses its kind's rate: the prompt repeats a
// sentence, the drafter copies its rest, and twice the model takes the first token and
// rejects the second. The next copy from the same place stops at that token, now rated below
// one half given its parent. Without TokenRecord the kinds' own rates, which fall too, still
// rate it 0.7 and the copy runs two tokens past it.
TEST(DraftPolicy, ATokenRejectedInThisTextLosesItsKindsRate) {
  Model& m = shared_model("smollm2", 64, 4096);
  const std::unique_ptr<Drafter> drafter = sure_retrieval_drafter(m);
  const Tokens sentence = lighthouse_sentence(m);
  Tokens prompt = sentence;
  prompt.insert(prompt.end(), sentence.begin(), sentence.end() - 6);  // again, cut
  drafter->begin(prompt);
  const DraftTree first = drafter->draft(prompt, 64);
  ASSERT_GE(first.size(), 5) << "the copy of the sentence's rest was not drafted";
  const Token rejected = first.token(2);
  for (int round = 0; round < 2; ++round) {
    const DraftTree tree = drafter->draft(prompt, 64);
    ASSERT_GE(tree.size(), 3);
    ASSERT_EQ(tree.token(2), rejected);
    drafter->feedback(tree, {0, 1});  // node 1 accepted, node 2 (and so the rest) not
  }
  const DraftTree after = drafter->draft(prompt, 64);
  ASSERT_GE(after.size(), 2);
  EXPECT_LE(after.size(), 3) << "the copy runs past the rejected token";
  if (after.size() == 3) {
    EXPECT_EQ(after.token(2), rejected);
    EXPECT_LT(after.score(2) / after.score(1), 0.5);  // scores are path probabilities
  }
}

// The trace replay_drafts.py reads must hold what happened: one step before every commit but
// the first, candidate trees whose parents come first, a price per size, a kept set that is
// a rooted subtree, and, greedy, exactly as many committed tokens as the kept nodes the
// output confirms plus the bonus (the model's own token).
TEST(DraftPolicy, TraceRecordsEveryStepAsItHappened) {
  Model& m = shared_model("smollm2", 64, 4096);
  const Profile calibrated = calibrated_profile(m);
  MethodConfig config{Method::kReader, std::nullopt, shared_datastore("smollm2"), nullptr};
  config.profile = &calibrated;
  config.adapt_cost = false;  // drafting as the profile prices it, whatever the hour
  Generator reader(m, config);
  std::ostringstream text;
  DraftTrace trace(text);
  reader.set_trace(&trace);
  const Tokens prompt = m.tokenize(
      m.apply_chat_template(std::string("Repeat this passage word for word: ") + kPassage), true,
      true);
  GenerationOptions opts;
  opts.max_tokens = 64;
  const GenerationResult r = reader.run(prompt, opts);

  std::istringstream lines(text.str());
  std::string line;
  std::vector<nlohmann::json> steps;
  std::vector<Tokens> commits;
  ASSERT_TRUE(std::getline(lines, line));
  EXPECT_EQ(nlohmann::json::parse(line).at("prompt").get<Tokens>(), prompt);
  while (std::getline(lines, line)) {
    const nlohmann::json j = nlohmann::json::parse(line);
    if (j.contains("step")) {
      ASSERT_EQ(steps.size(), commits.size() - 1) << "two steps without a commit between";
      steps.push_back(j["step"]);
    } else {
      commits.push_back(j.at("commit").get<Tokens>());
    }
  }
  ASSERT_EQ(steps.size() + 1, commits.size());
  Tokens output;
  for (const Tokens& c : commits) output.insert(output.end(), c.begin(), c.end());
  EXPECT_EQ(output, r.tokens);
  size_t position = commits[0].size(), drafted = 0;
  for (size_t s = 0; s < steps.size(); ++s) {
    const auto parents = steps[s]["parents"].get<std::vector<int>>();
    const auto tokens = steps[s]["tokens"].get<Tokens>();
    const auto keep = steps[s]["keep"].get<std::vector<int>>();
    ASSERT_EQ(tokens.size(), parents.size());
    ASSERT_EQ(steps[s]["q"].size(), parents.size());
    ASSERT_EQ(steps[s]["cost"].size(), parents.size() + 1);
    ASSERT_EQ(steps[s]["context"].get<size_t>(), prompt.size() + position);
    ASSERT_FALSE(keep.empty());
    ASSERT_EQ(keep[0], 0);
    std::vector<int> depth = {0};
    std::vector<char> kept(parents.size() + 1, 0), confirmed(parents.size() + 1, 0);
    for (int k : keep) kept[static_cast<size_t>(k)] = 1;
    confirmed[0] = 1;
    size_t accepted = 0;
    for (size_t i = 1; i <= parents.size(); ++i) {
      const auto parent = static_cast<size_t>(parents[i - 1]);
      ASSERT_LT(parent, i);
      if (kept[i]) {
        ASSERT_TRUE(kept[parent]) << "a kept node's parent was not kept";
      }
      depth.push_back(depth[parent] + 1);
      const size_t at = position + static_cast<size_t>(depth[i]) - 1;
      confirmed[i] =
          kept[i] && confirmed[parent] && at < output.size() && output[at] == tokens[i - 1];
      if (confirmed[i]) accepted = std::max(accepted, static_cast<size_t>(depth[i]));
    }
    drafted += keep.size() - 1;
    if (s + 1 < steps.size()) {  // the last commit may stop at the token limit
      EXPECT_EQ(commits[s + 1].size(), accepted + 1) << "step " << s;
    }
    position += commits[s + 1].size();
  }
  EXPECT_EQ(drafted, static_cast<size_t>(r.stats.drafted_tokens));
  EXPECT_GT(r.stats.mean_accepted(), 1.5) << "a copy was not drafted: the test shows little";
}

}  // namespace
}  // namespace reader::test
