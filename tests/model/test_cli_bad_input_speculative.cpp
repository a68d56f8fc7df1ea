// Bad input to `reader datastore build` and to the speculative methods: a one-line error
// before any generation starts, a non-zero exit, and no half-written datastore.
#include <gtest/gtest.h>

#include <fstream>

#include "cli_runner.h"
#include "model_fixture.h"

namespace reader::test {
namespace {

void expect_error_before_output(const CliResult& r, const std::string& needle) {
  EXPECT_NE(r.exit_code, 0);
  EXPECT_LT(r.exit_code, 128) << "killed by a signal";
  EXPECT_NE(r.err.find("reader: error:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << "stderr: " << r.err;
  EXPECT_TRUE(r.out.empty()) << "generated before failing: " << r.out;
}

TEST(DatastoreBuildBadInput, UnreadableInputLeavesNothing) {
  const auto out = scratch_path("missing.rds");
  expect_error_before_output(
      run_cli("datastore build --input " + (missing_dir() / "corpus.jsonl").string() + " --out " +
              out.string()),
      "cannot read input");
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(DatastoreBuildBadInput, MalformedJsonLineSkippedOrRefused) {
  const auto in = scratch_file(
      "bad.jsonl",
      "{\"response\": \"hello there\"}\n{not json\n{\"response\": \"general kenobi\"}\n");
  const auto out = scratch_path("bad.rds");
  const CliResult ok = run_cli("datastore build --input " + in.string() + " --out " + out.string());
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_NE(ok.out.find("1 malformed lines skipped"), std::string::npos) << ok.out;
  std::filesystem::remove(out);
  expect_error_before_output(
      run_cli("datastore build --strict --input " + in.string() + " --out " + out.string()),
      ":2: malformed");
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(DatastoreBuildBadInput, EmptyCorpusAndMissingField) {
  const auto empty = scratch_file("empty.jsonl", "{\"response\": \"\"}\n");
  expect_error_before_output(run_cli("datastore build --input " + empty.string() + " --out " +
                                     scratch_path("e.rds").string()),
                             "no non-empty documents");
  const auto nofield = scratch_file("nofield.jsonl", "{\"question\": \"why\"}\n");
  expect_error_before_output(run_cli("datastore build --input " + nofield.string() + " --out " +
                                     scratch_path("f.rds").string()),
                             "no record has the field");
}

TEST(SpeculativeBadInput, DatastoreFromAnotherTokenizer) {
  const auto in = scratch_file("docs.jsonl", "{\"response\": \"some text to index\"}\n");
  const auto gemma_ds = scratch_path("gemma.rds");
  ASSERT_EQ(run_cli("datastore build -m " + gemma3_model_path().string() + " --input " +
                    in.string() + " --out " + gemma_ds.string())
                .exit_code,
            0);
  expect_error_before_output(
      run_cli("generate --method reader --prompt hi --datastore " + gemma_ds.string()),
      "tokenizer");
}

TEST(SpeculativeBadInput, CorruptOrTruncatedDatastore) {
  const auto junk = scratch_file("junk.rds", std::string(4096, 'x'));
  expect_error_before_output(
      run_cli("generate --method reader --prompt hi --datastore " + junk.string()), "datastore");
}

TEST(SpeculativeBadInput, DraftModelWithAnotherVocabulary) {
  expect_error_before_output(
      run_cli("generate --method draft --prompt hi --draft-model " + gemma3_model_path().string()),
      "different vocabulary");
  expect_error_before_output(run_cli("generate --method draft --prompt hi"), "--draft-model");
}

TEST(SpeculativeBadInput, MalformedOrOversizedTreeShape) {
  expect_error_before_output(run_cli("generate --method reader --prompt hi --tree " +
                                     scratch_file("t1.json", "{\"speculator\": [[0, 0]]").string()),
                             "malformed tree shape");
  expect_error_before_output(
      run_cli("generate --method reader --prompt hi --tree " +
              scratch_file("t2.json", "{\"speculator\": [[3, 0]]}").string()),
      "parent");
  // Whole trees need a sequence id per branch (a single path, the default, needs none).
  std::string wide = "{\"single_path\": false, \"speculator\": [";
  for (int i = 0; i < 100; ++i)
    wide += std::string(i ? "," : "") + "[-1," + std::to_string(i % 60) + "]";
  wide += "]}";
  expect_error_before_output(run_cli("generate --method reader --prompt hi --tree " +
                                     scratch_file("t3.json", wide).string()),
                             "sequence ids");
  expect_error_before_output(run_cli("generate --method reader --prompt hi --tree " +
                                     scratch_file("t4.json", "{\"depth\": 3}").string()),
                             "unknown key");
}

TEST(SpeculativeDraftModel, SelfDraftingIsLossless) {
  // The only same-vocabulary pair we have is SmolLM2 with itself, which costs as much as the
  // target, so the CLI's measured cost keeps it from drafting; the speculator itself is
  // exercised by DraftPolicy.DraftModelRunsOnlyWhereItCanPay and Lossless/smollm2_draft.
  const std::string common = "generate --chat --prompt 'List three fruits.' -n 24 ";
  const CliResult ar = run_cli(common + "--method ar");
  const CliResult draft =
      run_cli(common + "--method draft --draft-model " + default_model_path().string());
  EXPECT_EQ(draft.exit_code, 0) << draft.err;
  EXPECT_FALSE(ar.out.empty());
  EXPECT_EQ(ar.out, draft.out);
}

}  // namespace
}  // namespace reader::test
