// reader datastore generate: the model's own greedy answers, each exactly what `reader generate
// --method ar` gives for that prompt alone (the engine batches them, one KV stream per
// sequence), in a JSONL that `datastore build` reads; bad input refused before any work.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_runner.h"
#include "model_fixture.h"

namespace reader::test {
namespace {

TEST(DatastoreGenerate, AnswersAreTheModelsOwnAloneAndIndexable) {
  // The three prompt spellings: instruction with an input, question, prompt.
  const auto in =
      scratch_file("prompts.jsonl",
                   "{\"instruction\": \"Name a fruit.\", \"input\": \"It is yellow.\"}\n"
                   "{\"question\": \"What is 2 + 3?\", \"answer\": \"5\"}\n"
                   "{\"prompt\": \"Write one word about the sea.\"}\n");
  const auto out = scratch_path("answers.jsonl");
  const CliResult r =
      run_cli("datastore generate -i " + in.string() + " -n 12 --parallel 2 -o " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream lines(out);
  std::string line;
  int n = 0;
  while (std::getline(lines, line)) {
    const auto j = nlohmann::json::parse(line);
    std::string name = std::to_string(n);
    name += ".txt";
    const auto prompt_file = scratch_file(name, j.at("prompt").get<std::string>());
    const CliResult alone =
        run_cli("generate --method ar -n 12 --prompt-file " + prompt_file.string());
    ASSERT_EQ(alone.exit_code, 0) << alone.err;
    std::string expected = j.at("response").get<std::string>();
    expected.push_back('\n');  // generate ends its output with a newline
    EXPECT_EQ(expected, alone.out) << j.at("prompt");
    EXPECT_EQ(j.at("source"), in.stem().string());  // the input file's stem
    ++n;
  }
  EXPECT_EQ(n, 3);
  const CliResult built =
      run_cli("datastore build -i " + out.string() + " -o " + scratch_path("own.rds").string());
  EXPECT_EQ(built.exit_code, 0) << built.err;
  EXPECT_NE(built.out.find("documents 3"), std::string::npos) << built.out;
}

TEST(DatastoreGenerate, BadInputRefusedBeforeAnyWork) {
  const auto missing = missing_dir() / "prompts.jsonl";
  CliResult r = run_cli("datastore generate -i " + missing.string() + " -o " +
                        scratch_path("a.jsonl").string());
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("cannot read input file"), std::string::npos) << r.err;
  const auto answers_only = scratch_file("answers_only.jsonl", "{\"response\": \"hello\"}\n");
  r = run_cli("datastore generate -i " + answers_only.string() + " -o " +
              scratch_path("b.jsonl").string());
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("no record has the field instruction/question/prompt"), std::string::npos)
      << r.err;
  r = run_cli("datastore generate -i " + answers_only.string() + " -o " + answers_only.string());
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("--out"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(answers_only), "{\"response\": \"hello\"}\n");  // the input survived
  EXPECT_FALSE(std::filesystem::exists(scratch_path("a.jsonl")));
  EXPECT_FALSE(std::filesystem::exists(scratch_path("b.jsonl")));
}

}  // namespace
}  // namespace reader::test
