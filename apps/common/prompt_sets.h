// Prompt sets from ../shared/data (see its README): the workloads of `reader bench`,
// `reader repetition` and the losslessness tests. Read in place, never copied.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace reader {

struct PromptItem {
  std::string id;                       // stable id within the set (e.g. "HumanEval/0")
  std::string user;                     // the user message (goes through the chat template)
  std::string context;                  // the retrievable input (passage, code prompt, question)
  std::vector<std::string> references;  // reference responses (for the repetition metric)
};

// Names: "rag" (CLAP NQ: question + passage), "humaneval", "gsm8k" (test questions),
// "mt_bench" (first turns). At most `limit` items (0: all), in file order.
std::vector<PromptItem> load_prompt_set(const std::string& name,
                                        const std::filesystem::path& data_dir, int limit = 0);
std::vector<std::string> prompt_set_names();
std::filesystem::path default_data_dir();  // $READER_DATA_DIR, else the configured ../shared/data

// Whole file as text; transparently gunzips *.gz. Throws std::runtime_error.
std::string read_file_maybe_gz(const std::filesystem::path& path);

}  // namespace reader
