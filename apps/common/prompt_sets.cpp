#include "prompt_sets.h"

#include <zlib.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

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

}  // namespace

std::string read_file_maybe_gz(const std::filesystem::path& path) {
  if (path.extension() != ".gz") {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path.string());
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) throw std::runtime_error("cannot read " + path.string());
  std::string out;
  char buf[1 << 16];
  int n;
  while ((n = gzread(f, buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  const bool bad = n < 0;
  gzclose(f);
  if (bad) throw std::runtime_error("corrupt gzip file " + path.string());
  return out;
}

std::vector<std::string> prompt_set_names() { return {"rag", "humaneval", "gsm8k", "mt_bench"}; }

std::filesystem::path default_data_dir() {
  if (const char* env = std::getenv("READER_DATA_DIR"); env && *env) return env;
  return READER_DATA_DIR;
}

std::vector<PromptItem> load_prompt_set(const std::string& name, const std::filesystem::path& dir,
                                        int limit) {
  std::vector<PromptItem> items;
  if (name == "rag") {
    for (const json& r : read_jsonl(dir / "rag/clapnq_dev_answerable.jsonl", limit)) {
      PromptItem it;
      it.id = r.value("id", "");
      const json& passage = r.at("passages").at(0);
      it.context = passage.value("title", "") + "\n" + passage.value("text", "");
      const std::string question = r.value("input", "");
      it.user = "Answer the question using the passage.\n\nPassage: " + it.context +
                "\n\nQuestion: " + question;
      it.context += "\n" + question;
      for (const json& o : r.value("output", json::array()))
        if (o.contains("answer")) it.references.push_back(o["answer"].get<std::string>());
      items.push_back(std::move(it));
    }
  } else if (name == "humaneval") {
    for (const json& r : read_jsonl(dir / "humaneval/HumanEval.jsonl.gz", limit)) {
      PromptItem it;
      it.id = r.value("task_id", "");
      it.context = r.value("prompt", "");
      it.user = "Complete the following Python function.\n\n```python\n" + it.context + "```";
      it.references.push_back(r.value("canonical_solution", ""));
      items.push_back(std::move(it));
    }
  } else if (name == "gsm8k") {
    int i = 0;
    for (const json& r : read_jsonl(dir / "gsm8k/test.jsonl", limit)) {
      PromptItem it;
      it.id = "gsm8k/" + std::to_string(i++);
      it.context = r.value("question", "");
      it.user = it.context + "\nSolve it step by step.";
      it.references.push_back(r.value("answer", ""));
      items.push_back(std::move(it));
    }
  } else if (name == "mt_bench") {
    for (const json& r : read_jsonl(dir / "mt_bench/question.jsonl", limit)) {
      PromptItem it;
      it.id = "mt_bench/" + std::to_string(r.value("question_id", 0));
      it.context = r.at("turns").at(0).get<std::string>();
      it.user = it.context;
      items.push_back(std::move(it));
    }
  } else {
    throw std::invalid_argument("unknown prompt set '" + name +
                                "' (rag, humaneval, gsm8k, mt_bench)");
  }
  if (items.empty())
    throw std::runtime_error("prompt set '" + name + "' is empty under " + dir.string());
  return items;
}

}  // namespace reader
