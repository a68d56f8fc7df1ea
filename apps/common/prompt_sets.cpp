#include "prompt_sets.h"

#include <zlib.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "util/read_file.h"

namespace reader {
namespace {

using nlohmann::json;

std::vector<json> read_jsonl(const std::filesystem::path& path, int limit) {
  std::istringstream in(read_file_maybe_gz(path));
  std::vector<json> rows;
  std::string line;
  int line_no = 0;
  while (std::getline(in, line) && (limit <= 0 || static_cast<int>(rows.size()) < limit)) {
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    try {
      rows.push_back(json::parse(line));
    } catch (const json::exception& e) {
      throw std::runtime_error(path.string() + ":" + std::to_string(line_no) + ": malformed JSON");
    }
  }
  return rows;
}

// The title and text of a CLAP NQ row's first passage.
std::string clapnq_passage(const json& r) {
  const json& passage = r.at("passages").at(0);
  return passage.value("title", "") + "\n" + passage.value("text", "");
}

// An instruction of the code_edit set: items rotate through these in file order.
struct CodeEdit {
  const char* key;          // appended to the item id
  const char* instruction;  // what to change
};
constexpr CodeEdit kCodeEdits[] = {
    {"types", "Add type hints to every variable and a docstring with Args and Returns sections."},
    {"rename", "Rename the local variables to longer, more descriptive names."},
    {"comprehension",
     "Convert the loops to list comprehensions or generator expressions where "
     "possible."},
    {"comments", "Add a short comment above every statement of the body explaining what it does."},
    {"validate",
     "Add input validation at the start of the function that raises ValueError on "
     "invalid arguments."},
};

}  // namespace

std::string read_file_maybe_gz(const std::filesystem::path& path) {
  std::string problem;
  if (path.extension() != ".gz") {
    std::optional<std::string> text = read_small_file(path, problem, kMaxDataFileBytes);
    if (!text) throw std::runtime_error("cannot read " + path.string() + ": " + problem);
    return std::move(*text);
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw std::runtime_error("cannot read " + path.string() + ": it is a directory");
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) throw std::runtime_error("cannot read " + path.string());
  std::string out;
  char buf[1 << 16];
  int n;
  while ((n = gzread(f, buf, sizeof buf)) > 0 && out.size() <= kMaxDataFileBytes)
    out.append(buf, static_cast<size_t>(n));
  // A stream cut short reads as a clean end of file; zlib says so only through gzerror().
  int err = Z_OK;
  gzerror(f, &err);
  gzclose(f);
  if (out.size() > kMaxDataFileBytes)
    throw std::runtime_error("cannot read " + path.string() + ": it is larger than " +
                             size_in_words(kMaxDataFileBytes));
  if (n < 0 || (err != Z_OK && err != Z_STREAM_END))
    throw std::runtime_error("corrupt or truncated gzip file " + path.string());
  return out;
}

std::vector<std::string> prompt_set_names() { return {"rag", "humaneval", "gsm8k", "mt_bench"}; }

std::vector<std::string> all_prompt_set_names() {
  std::vector<std::string> names = prompt_set_names();
  for (const char* s : {"code_edit", "multi_turn", "summarization"}) names.emplace_back(s);
  return names;
}

std::filesystem::path default_data_dir() {
  if (const char* env = std::getenv("READER_DATA_DIR"); env && *env) return env;
  return READER_DATA_DIR;
}

std::vector<PromptItem> load_prompt_set(const std::string& name, const std::filesystem::path& dir,
                                        int limit, int offset) {
  if (offset < 0) throw std::invalid_argument("prompt offset must be >= 0");
  // Rows up to the end of the slice; summarization reads the file backwards, so all of it.
  const int rows_needed = limit > 0 ? offset + limit : 0;
  std::vector<PromptItem> items;
  if (name == "rag") {
    for (const json& r : read_jsonl(dir / "rag/clapnq_dev_answerable.jsonl", rows_needed)) {
      PromptItem it;
      it.id = r.value("id", "");
      it.context = clapnq_passage(r);
      const std::string question = r.value("input", "");
      it.user = "Answer the question using the passage.\n\nPassage: " + it.context +
                "\n\nQuestion: " + question;
      it.context += "\n" + question;
      for (const json& o : r.value("output", json::array()))
        if (o.contains("answer")) it.references.push_back(o["answer"].get<std::string>());
      items.push_back(std::move(it));
    }
  } else if (name == "humaneval") {
    for (const json& r : read_jsonl(dir / "humaneval/HumanEval.jsonl.gz", rows_needed)) {
      PromptItem it;
      it.id = r.value("task_id", "");
      it.context = r.value("prompt", "");
      it.user = "Complete the following Python function.\n\n```python\n" + it.context + "```";
      it.references.push_back(r.value("canonical_solution", ""));
      items.push_back(std::move(it));
    }
  } else if (name == "gsm8k") {
    int i = 0;
    for (const json& r : read_jsonl(dir / "gsm8k/test.jsonl", rows_needed)) {
      PromptItem it;
      it.id = "gsm8k/" + std::to_string(i++);
      it.context = r.value("question", "");
      it.user = it.context + "\nSolve it step by step.";
      it.references.push_back(r.value("answer", ""));
      items.push_back(std::move(it));
    }
  } else if (name == "mt_bench") {
    for (const json& r : read_jsonl(dir / "mt_bench/question.jsonl", rows_needed)) {
      PromptItem it;
      it.id = "mt_bench/" + std::to_string(r.value("question_id", 0));
      it.context = r.at("turns").at(0).get<std::string>();
      it.user = it.context;
      items.push_back(std::move(it));
    }
  } else if (name == "code_edit") {
    int i = 0;
    for (const json& r : read_jsonl(dir / "humaneval/HumanEval.jsonl.gz", rows_needed)) {
      const CodeEdit& edit = kCodeEdits[static_cast<size_t>(i++) % std::size(kCodeEdits)];
      PromptItem it;
      it.id = r.value("task_id", "") + "/" + edit.key;
      it.context = r.value("prompt", "") + r.value("canonical_solution", "");
      it.user = "Here is a Python function:\n\n```python\n" + it.context + "```\n\n" +
                edit.instruction +
                " Keep everything else as it is, and return the whole function in one Python "
                "code block.";
      items.push_back(std::move(it));
    }
  } else if (name == "multi_turn") {
    for (const json& r : read_jsonl(dir / "mt_bench/question.jsonl", rows_needed)) {
      PromptItem it;
      it.id = "mt_bench/" + std::to_string(r.value("question_id", 0)) + "/turn2";
      const json& turns = r.at("turns");
      it.history = {{"user", turns.at(0).get<std::string>(), false}, {"assistant", "", true}};
      it.user = turns.at(1).get<std::string>();
      it.context = it.history[0].content + "\n" + it.user;
      items.push_back(std::move(it));
    }
  } else if (name == "summarization") {
    std::vector<json> rows = read_jsonl(dir / "rag/clapnq_dev_answerable.jsonl", 0);
    std::reverse(rows.begin(), rows.end());  // rag takes its prompts from the start
    for (const json& r : rows) {
      PromptItem it;
      it.id = r.value("id", "") + "/summary";
      it.context = clapnq_passage(r);
      it.user = "Summarize the following passage in a few sentences.\n\nPassage: " + it.context;
      items.push_back(std::move(it));
    }
  } else {
    std::string names;
    for (const std::string& n : all_prompt_set_names()) names += (names.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown prompt set '" + name + "' (" + names + ")");
  }
  if (static_cast<size_t>(offset) >= items.size())
    throw std::runtime_error("prompt set '" + name + "' has " + std::to_string(items.size()) +
                             " items under " + dir.string() + ", none after offset " +
                             std::to_string(offset));
  items.erase(items.begin(), items.begin() + offset);
  if (limit > 0 && items.size() > static_cast<size_t>(limit))
    items.resize(static_cast<size_t>(limit));
  return items;
}

}  // namespace reader
