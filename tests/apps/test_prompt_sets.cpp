// The built-in prompt sets (read from ../shared/data) and --prompts-file parsing.
#include <gtest/gtest.h>
#include <zlib.h>

#include <fstream>
#include <iterator>
#include <set>

#include "prompt_sets.h"

namespace reader {
namespace {

TEST(PromptSetsTest, EverySetHasUniqueNonEmptyItems) {
  for (const std::string& name : all_prompt_set_names()) {
    const std::vector<PromptItem> items = load_prompt_set(name, default_data_dir());
    EXPECT_GE(items.size(), 50u) << name;
    std::set<std::string> ids;
    for (const PromptItem& it : items) {
      EXPECT_TRUE(ids.insert(it.id).second) << name << ": duplicate id " << it.id;
      EXPECT_FALSE(it.id.empty()) << name;
      EXPECT_FALSE(it.user.empty()) << name << " " << it.id;
      EXPECT_FALSE(it.context.empty()) << name << " " << it.id;
    }
  }
}

TEST(PromptSetsTest, OffsetAndLimitSliceTheSet) {
  for (const std::string& name : all_prompt_set_names()) {
    const std::vector<PromptItem> all = load_prompt_set(name, default_data_dir());
    const std::vector<PromptItem> slice = load_prompt_set(name, default_data_dir(), 3, 5);
    ASSERT_EQ(slice.size(), 3u) << name;
    for (size_t i = 0; i < slice.size(); ++i) EXPECT_EQ(slice[i].id, all[i + 5].id) << name;
    EXPECT_EQ(load_prompt_set(name, default_data_dir(), 0, 5).size(), all.size() - 5) << name;
    EXPECT_THROW(load_prompt_set(name, default_data_dir(), 1, static_cast<int>(all.size())),
                 std::runtime_error)
        << name;
  }
  EXPECT_THROW(load_prompt_set("no_such_set", default_data_dir()), std::invalid_argument);
}

TEST(PromptSetsTest, CodeEditAsksToChangeTheCanonicalSolution) {
  const std::vector<PromptItem> edits = load_prompt_set("code_edit", default_data_dir(), 10);
  const std::vector<PromptItem> originals = load_prompt_set("humaneval", default_data_dir(), 10);
  std::set<std::string> instructions;
  for (size_t i = 0; i < edits.size(); ++i) {
    const std::string function = originals[i].context + originals[i].references.at(0);
    EXPECT_NE(edits[i].user.find(function), std::string::npos) << edits[i].id;
    EXPECT_EQ(edits[i].context, function);
    EXPECT_NE(edits[i].user.find("whole function"), std::string::npos);
    instructions.insert(edits[i].user.substr(edits[i].user.rfind("```")));
  }
  EXPECT_GE(instructions.size(), 4u);  // the instructions rotate
}

TEST(PromptSetsTest, MultiTurnLetsTheModelWriteTheFirstAnswer) {
  const std::vector<PromptItem> items = load_prompt_set("multi_turn", default_data_dir(), 5);
  const std::vector<PromptItem> first = load_prompt_set("mt_bench", default_data_dir(), 5);
  for (size_t i = 0; i < items.size(); ++i) {
    ASSERT_EQ(items[i].history.size(), 2u);
    EXPECT_EQ(items[i].history[0].role, "user");
    EXPECT_EQ(items[i].history[0].content, first[i].user);
    EXPECT_EQ(items[i].history[1].role, "assistant");
    EXPECT_TRUE(items[i].history[1].model_writes);
    EXPECT_NE(items[i].user, first[i].user);
  }
}

TEST(PromptSetsTest, SummarizationStartsWhereRagDoesNot) {
  const std::vector<PromptItem> rag = load_prompt_set("rag", default_data_dir(), 20);
  const std::vector<PromptItem> sums = load_prompt_set("summarization", default_data_dir(), 20);
  std::set<std::string> rag_passages;
  for (const PromptItem& it : rag) rag_passages.insert(it.id);
  for (const PromptItem& it : sums) {
    EXPECT_EQ(rag_passages.count(it.id.substr(0, it.id.rfind('/'))), 0u) << it.id;
    EXPECT_NE(it.user.find(it.context), std::string::npos);
  }
}

class PromptsFileTest : public ::testing::Test {
 protected:
  std::filesystem::path write(const std::string& text, const std::string& name = "mine.jsonl") {
    std::filesystem::path p = ::testing::TempDir() + name;
    std::ofstream(p) << text;
    return p;
  }
  // The one-line error load_prompts_file gives for `text`, or "" when it loads.
  std::string error_of(const std::string& text) {
    try {
      load_prompts_file(write(text));
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return "";
  }
};

TEST_F(PromptsFileTest, ReadsPromptsMessagesSetsAndIds) {
  const auto p = write(
      "{\"prompt\": \"Hello\"}\n"
      "\n"
      "{\"messages\": [{\"role\": \"system\", \"content\": \"Be brief.\"}, "
      "{\"role\": \"user\", \"content\": \"Hi\"}, {\"role\": \"assistant\", \"content\": null}, "
      "{\"role\": \"user\", \"content\": \"More\"}], \"set\": \"chat\", \"id\": \"c1\"}\n"
      "{\"prompt\": \"Bye\", \"id\": 7}\n"
      "{\"prompt\": \"Big\", \"id\": 18446744073709551615}\n"
      "{\"prompt\": \"Minus\", \"id\": -1}\n");
  const auto sets = load_prompts_file(p);
  ASSERT_EQ(sets.size(), 2u);
  EXPECT_EQ(sets[0].first, "mine");
  ASSERT_EQ(sets[0].second.size(), 4u);
  EXPECT_EQ(sets[0].second[2].id, "18446744073709551615");  // not -1: ids stay apart
  EXPECT_EQ(sets[0].second[3].id, "-1");
  EXPECT_EQ(sets[0].second[0].id, "mine/1");
  EXPECT_EQ(sets[0].second[0].user, "Hello");
  EXPECT_TRUE(sets[0].second[0].history.empty());
  EXPECT_EQ(sets[0].second[1].id, "7");
  EXPECT_EQ(sets[1].first, "chat");
  const PromptItem& c = sets[1].second.at(0);
  EXPECT_EQ(c.id, "c1");
  EXPECT_EQ(c.user, "More");
  ASSERT_EQ(c.history.size(), 3u);
  EXPECT_EQ(c.history[0].role, "system");
  EXPECT_EQ(c.history[1].content, "Hi");
  EXPECT_TRUE(c.history[2].model_writes);
  // Offset and limit apply per set; a set with nothing after the offset is an error.
  const auto limited = load_prompts_file(p, 1);
  ASSERT_EQ(limited.size(), 2u);
  EXPECT_EQ(limited[0].second.size(), 1u);
  EXPECT_EQ(limited[0].second[0].id, "mine/1");
  EXPECT_THROW(load_prompts_file(p, 0, 1), std::runtime_error);
}

TEST_F(PromptsFileTest, MalformedLinesNameFileAndLine) {
  const std::string ok = "{\"prompt\": \"a\"}\n";
  const std::vector<std::pair<std::string, std::string>> bad = {
      {ok + "{\"prompt\": \"b\"\n", "malformed JSON"},
      {ok + "[1, 2]\n", "expected a JSON object"},
      {ok + "{\"prompt\": 3}\n", "\"prompt\" must be a non-empty string"},
      {ok + "{\"prompt\": \"\"}\n", "\"prompt\" must be a non-empty string"},
      {ok + "{}\n", "exactly one of"},
      {ok + "{\"prompt\": \"b\", \"messages\": []}\n", "exactly one of"},
      {ok + "{\"prompt\": \"b\", \"colour\": 1}\n", "unknown field \"colour\""},
      {ok + "{\"messages\": []}\n", "non-empty array"},
      {ok + "{\"messages\": [{\"role\": \"user\"}]}\n", "needs \"role\" and \"content\""},
      {ok + "{\"messages\": [{\"role\": \"bot\", \"content\": \"x\"}]}\n", "role must be"},
      {ok + "{\"messages\": [{\"role\": \"assistant\", \"content\": \"x\"}]}\n",
       "last message must be"},
      {ok + "{\"messages\": [{\"role\": \"assistant\", \"content\": null}, "
            "{\"role\": \"user\", \"content\": \"x\"}]}\n",
       "content must be a string"},
      {ok + "{\"messages\": [{\"role\": \"user\", \"content\": null}]}\n",
       "content must be a string"},
      {ok + "{\"prompt\": \"b\", \"set\": 5}\n", "\"set\" must be"},
      {ok + "{\"prompt\": \"b\", \"id\": \"x\"}\n{\"prompt\": \"c\", \"id\": \"x\"}\n",
       "duplicate id"},
  };
  for (const auto& [text, what] : bad) {
    const std::string err = error_of(text);
    EXPECT_NE(err.find("mine.jsonl:"), std::string::npos) << text << " -> " << err;
    EXPECT_NE(err.find(what), std::string::npos) << text << " -> " << err;
    EXPECT_EQ(err.find('\n'), std::string::npos) << err;  // one line
    const size_t line = text.find("x\"}\n{") != std::string::npos ? 3 : 2;
    EXPECT_NE(err.find(":" + std::to_string(line) + ": "), std::string::npos) << err;
  }
  EXPECT_NE(error_of("\n\n").find("no prompts"), std::string::npos);
  EXPECT_THROW(load_prompts_file(::testing::TempDir() + "does_not_exist.jsonl"),
               std::runtime_error);
}

// Whole data files: a gzip stream cut short is an error, not a shorter file.
TEST_F(PromptsFileTest, TruncatedGzipDirectoryAndEndlessFilesAreRefused) {
  std::string text;
  for (int i = 0; i < 3000; ++i) text += "{\"prompt\": \"line " + std::to_string(i) + "\"}\n";
  const std::filesystem::path gz = ::testing::TempDir() + "whole.jsonl.gz";
  gzFile f = gzopen(gz.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(gzwrite(f, text.data(), static_cast<unsigned>(text.size())),
            static_cast<int>(text.size()));
  gzclose(f);
  EXPECT_EQ(read_file_maybe_gz(gz), text);
  std::ifstream in(gz, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::filesystem::path cut = ::testing::TempDir() + "cut.jsonl.gz";
  std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  const auto message = [](const std::filesystem::path& p) -> std::string {
    try {
      read_file_maybe_gz(p);
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_NE(message(cut).find("truncated gzip"), std::string::npos) << message(cut);
  EXPECT_NE(message(::testing::TempDir()).find("is a directory"), std::string::npos);
  std::filesystem::remove(gz);
  std::filesystem::remove(cut);
}

}  // namespace
}  // namespace reader
