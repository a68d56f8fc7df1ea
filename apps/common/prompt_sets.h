// Prompt sets from ../shared/data (see its README): the workloads of `reader bench`,
// `reader repetition` and the losslessness tests. Read in place, never copied.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace reader {

// An earlier turn of a conversation, before a prompt's final user message.
struct Turn {
  std::string role;           // "system", "user" or "assistant"
  std::string content;        // its text; empty while model_writes is set
  bool model_writes = false;  // an assistant turn the model itself writes at run time
};

struct PromptItem {
  std::string id;                       // stable id within the set (e.g. "HumanEval/0")
  std::string user;                     // the user message (goes through the chat template)
  std::vector<Turn> history;            // earlier turns, oldest first (empty: one turn)
  std::string context;                  // the retrievable input (passage, code prompt, question)
  std::vector<std::string> references;  // reference responses (for the repetition metric)
};

// Names: "rag" (CLAP NQ: question + passage), "humaneval", "gsm8k" (test questions),
// "mt_bench" (first turns), "code_edit" (a HumanEval solution to change and return whole),
// "multi_turn" (MT-Bench second turns after the model's own first answer), "summarization"
// (CLAP NQ passages, taken from the end of the file so that they differ from rag's first).
// Skips the first `offset` items, then at most `limit` (0: all), in the set's order; so
// calibration and report slices can be chosen disjoint. Throws when nothing is left.
std::vector<PromptItem> load_prompt_set(const std::string& name,
                                        const std::filesystem::path& data_dir, int limit = 0,
                                        int offset = 0);
// The four original single-turn sets (what the losslessness and KV tests iterate over).
std::vector<std::string> prompt_set_names();
std::vector<std::string> all_prompt_set_names();  // every built-in set (reader bench's default)

// A user's prompts, JSON Lines: one object per line, {"prompt": "..."} (one user turn) or
// {"messages": [{"role": ..., "content": ...}, ...]} ending with a user message (an
// assistant message with "content": null is written by the model at run time), optional
// "set" (default: the file's stem) and "id" (default: "<set>/<line>"). Returns the sets in
// order of first appearance, each sliced by offset and limit as load_prompt_set does.
// A malformed line throws std::runtime_error "FILE:LINE: problem".
std::vector<std::pair<std::string, std::vector<PromptItem>>> load_prompts_file(
    const std::filesystem::path& path, int limit = 0, int offset = 0);
std::filesystem::path default_data_dir();  // $READER_DATA_DIR, else the configured ../shared/data

// Data files (corpora, prompts) are read whole; past this, an input is a mistake (/dev/zero).
inline constexpr std::uintmax_t kMaxDataFileBytes = std::uintmax_t{4} << 30;
// Whole file as text; transparently gunzips *.gz. Throws std::runtime_error, one line, for a
// directory, an unreadable, truncated or corrupt file, or one over kMaxDataFileBytes.
std::string read_file_maybe_gz(const std::filesystem::path& path);

}  // namespace reader
