// `reader bench` end to end on a small slice: it writes bench.json and bench.md, every
// method's text is AR's, and each set's two speedups (ratio of median tokens/s, ratio of
// total tokens over total decode time) follow from the per-prompt rows it records.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.h"
#include "model_fixture.h"

namespace reader::test {
namespace {

using nlohmann::json;

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

TEST(CliBench, SummariesFollowFromThePerPromptRows) {
  const std::filesystem::path out = scratch_path("bench");
  const CliResult r = run_cli(
      "bench --model " + test_model_path("smollm2").string() +
      " --methods ar,reader --sets rag,code_edit --prompts 3 -n 24 --trace -o " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json bench = json::parse(slurp(out / "bench.json"));
  const std::string md = slurp(out / "bench.md");
  // --trace: READER's six runs (and its warm-up) labelled, each with its prompt and steps.
  std::map<std::string, int> traced;  // set -> runs
  std::vector<int> steps;             // per traced generation
  std::istringstream trace(slurp(out / "drafts.jsonl"));
  int prompts = 0;
  for (std::string line; std::getline(trace, line);) {
    const json j = json::parse(line);
    if (j.contains("run")) {
      EXPECT_EQ(j["run"]["method"], "reader");
      traced[j["run"]["set"].get<std::string>()]++;
      steps.push_back(0);
    }
    prompts += j.contains("prompt");
    if (j.contains("step")) {
      ASSERT_FALSE(steps.empty()) << "a step before any run label";
      ++steps.back();
    }
  }
  EXPECT_EQ(traced, (std::map<std::string, int>{{"code_edit", 3}, {"rag", 3}, {"warm-up", 1}}));
  EXPECT_EQ(prompts, 7);
  for (int n : steps) EXPECT_GT(n, 0) << "a traced generation without steps";
  // The replay reads the trace and re-makes every choice the drafter made.
  const std::filesystem::path replayed = out / "replay.md";
  const std::string replay = "python3 " READER_SOURCE_DIR "/scripts/replay_drafts.py " +
                             (out / "drafts.jsonl").string() + " > " + replayed.string() + " 2>&1";
  EXPECT_EQ(std::system(replay.c_str()), 0) << slurp(replayed);
  const std::string text = slurp(replayed);
  int agreed = -1, recorded = -2;
  const size_t at = text.find("reproduces ");
  ASSERT_NE(at, std::string::npos) << text;
  ASSERT_EQ(std::sscanf(text.c_str() + at, "reproduces %d of %d", &agreed, &recorded), 2) << text;
  EXPECT_GT(recorded, 0);
  EXPECT_EQ(agreed, recorded) << text;
  std::filesystem::remove_all(out);
  EXPECT_NE(md.find("| speedup (total time) |"), std::string::npos) << md;
  // What the run's steps cost against AR's (a record, not a claim about speed): every listed
  // size seen at least 10 times, in size order, and the same figures in bench.md.
  ASSERT_TRUE(bench.contains("step_costs")) << bench.dump().substr(0, 400);
  const json& costs = bench["step_costs"];
  EXPECT_GT(costs["ar_ms_per_step"].get<double>(), 0.0);
  ASSERT_TRUE(costs.contains("reader")) << costs.dump();
  int last_size = 0;
  for (const json& row : costs["reader"]) {
    EXPECT_GE(row["steps"].get<int>(), 10) << row.dump();
    EXPECT_GT(row["cost"].get<double>(), 0.0) << row.dump();
    EXPECT_GT(row["tokens"].get<int>(), last_size) << costs.dump();
    last_size = row["tokens"].get<int>();
  }
  if (!costs["reader"].empty()) {
    EXPECT_NE(md.find("Verification steps in this run"), std::string::npos) << md;
  }

  // set -> method -> per-prompt tokens/s, and total tokens and decode time.
  std::map<std::string, std::map<std::string, std::vector<double>>> tps;
  std::map<std::string, std::map<std::string, std::pair<double, double>>> total;
  ASSERT_EQ(bench["runs"].size(), 12u);
  for (const json& run : bench["runs"]) {
    EXPECT_TRUE(run["identical_to_ar"].get<bool>()) << run["set"] << " " << run["id"];
    const std::string set = run["set"], method = run["method"];
    tps[set][method].push_back(run["tokens_per_s"].get<double>());
    total[set][method].first += run["generated_tokens"].get<double>();
    total[set][method].second += run["decode_ms"].get<double>();
  }
  ASSERT_EQ(bench["summary"].size(), 4u);
  for (const json& row : bench["summary"]) {
    const std::string set = row["set"], method = row["method"];
    const auto rate = [&](const std::string& m) {
      return total[set][m].first / total[set][m].second;
    };
    EXPECT_NEAR(row.at("speedup").get<double>(),
                median_of(tps[set][method]) / median_of(tps[set]["ar"]), 1e-9);
    EXPECT_NEAR(row.at("speedup_total_time").get<double>(), rate(method) / rate("ar"), 1e-9);
  }
}

}  // namespace
}  // namespace reader::test
