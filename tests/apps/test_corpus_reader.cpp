// read_corpus_file: documents (responses) by default, prompts for `reader datastore generate`.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "corpus_reader.h"

namespace reader {
namespace {

std::filesystem::path write(const std::string& name, const std::string& content) {
  const auto p = std::filesystem::temp_directory_path() /
                 ("reader-corpus-" + std::to_string(::getpid()) + "-" + name);
  std::ofstream(p, std::ios::binary) << content;
  return p;
}

std::vector<std::string> read_all(const std::filesystem::path& p, const CorpusOptions& o) {
  std::vector<std::string> docs;
  read_corpus_file(p, o, [&](const std::string& d) { docs.push_back(d); });
  std::filesystem::remove(p);
  return docs;
}

TEST(CorpusReaderTest, PromptsOrResponsesOfTheSameRecords) {
  const std::string records =
      "[{\"instruction\": \"Add\", \"input\": \"1 2\", \"response\": \"3\"},"
      " {\"instruction\": \"Greet\", \"input\": \"\", \"response\": \"hi\"},"
      " {\"question\": \"Why?\", \"answer\": \"Because.\"},"
      " {\"prompt\": \"Say x\", \"completion\": \"x\"},"
      " {\"text\": \"no prompt here\"}]";
  CorpusOptions prompts;
  prompts.prompts = true;
  EXPECT_EQ(read_all(write("a.json", records), prompts),
            (std::vector<std::string>{"Add\n\n1 2", "Greet", "Why?", "Say x"}));
  EXPECT_EQ(read_all(write("b.json", records), {}),
            (std::vector<std::string>{"3", "hi", "Because.", "x", "no prompt here"}));
}

TEST(CorpusReaderTest, NoPromptAtAllIsAnError) {
  CorpusOptions prompts;
  prompts.prompts = true;
  const auto p = write("c.jsonl", "{\"response\": \"only answers\"}\n");
  EXPECT_THROW(
      {
        try {
          read_all(p, prompts);
        } catch (const std::runtime_error& e) {
          EXPECT_NE(std::string(e.what()).find("instruction/question/prompt"), std::string::npos);
          throw;
        }
      },
      std::runtime_error);
}

}  // namespace
}  // namespace reader
