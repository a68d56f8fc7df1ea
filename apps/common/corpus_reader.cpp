#include "corpus_reader.h"

#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "prompt_sets.h"

namespace reader {
namespace {

using nlohmann::json;

// The string field `name` of an object record, or false.
bool string_field(const json& record, const std::string& name, std::string& out) {
  auto it = record.find(name);
  if (it == record.end() || !it->is_string()) return false;
  out = it->get<std::string>();
  return true;
}

// The prompt of one record (CorpusOptions::prompts), or false if it has none.
bool prompt_of(const json& record, std::string& out) {
  if (!record.is_object()) return false;
  if (string_field(record, "instruction", out)) {
    std::string input;
    if (string_field(record, "input", input) && !input.empty()) out += "\n\n" + input;
    return true;
  }
  return string_field(record, "question", out) || string_field(record, "prompt", out);
}

// The document text of one record, or false if it has none.
bool document_of(const json& record, const CorpusOptions& options, std::string& out) {
  if (options.prompts) return prompt_of(record, out);
  if (record.is_string()) {
    out = record.get<std::string>();
    return true;
  }
  if (!record.is_object()) return false;
  if (!options.field.empty()) return string_field(record, options.field, out);
  for (const std::string& f : default_document_fields())
    if (string_field(record, f, out)) return true;
  return false;
}

}  // namespace

const std::vector<std::string>& default_document_fields() {
  static const std::vector<std::string> fields = {"response", "output", "answer", "completion",
                                                  "text"};
  return fields;
}

CorpusStats read_corpus_file(const std::filesystem::path& path, const CorpusOptions& options,
                             const std::function<void(const std::string&)>& on_document) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw std::runtime_error(path.string() + ": is a directory");
  const std::string data = read_file_maybe_gz(path);
  CorpusStats stats;
  auto emit = [&](const std::string& doc) {
    ++stats.documents;
    stats.bytes += doc.size();
    on_document(doc);
  };
  std::string ext = path.extension().string();
  if (ext == ".gz") ext = path.stem().extension().string();
  const size_t first = data.find_first_not_of(" \t\r\n");
  if (ext == ".json" || (ext != ".jsonl" && first != std::string::npos && data[first] == '[')) {
    json root;
    try {
      root = json::parse(data);
    } catch (const json::exception& e) {
      throw std::runtime_error(path.string() + ": malformed JSON (" + std::string(e.what()) + ")");
    }
    if (!root.is_array())
      throw std::runtime_error(path.string() + ": expected a JSON array of records");
    std::string doc;
    for (const json& r : root) {
      if (document_of(r, options, doc))
        emit(doc);
      else
        ++stats.missing_field;
    }
  } else if (ext == ".jsonl") {
    std::istringstream in(data);
    std::string line, doc;
    for (uint64_t line_no = 1; std::getline(in, line); ++line_no) {
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      json r;
      try {
        r = json::parse(line);
      } catch (const json::exception&) {
        if (options.strict)
          throw std::runtime_error(path.string() + ":" + std::to_string(line_no) +
                                   ": malformed JSON line");
        ++stats.malformed_lines;
        continue;
      }
      if (document_of(r, options, doc))
        emit(doc);
      else
        ++stats.missing_field;
    }
  } else if (options.text_lines) {
    std::istringstream in(data);
    std::string line;
    while (std::getline(in, line))
      if (!line.empty()) emit(line);
  } else {
    emit(data);
  }
  if (stats.documents == 0 && stats.missing_field > 0)
    throw std::runtime_error(path.string() + ": no record has the field " +
                             (options.prompts ? std::string("instruction/question/prompt")
                              : options.field.empty()
                                  ? std::string("response/output/answer/completion/text")
                                  : "'" + options.field + "'"));
  return stats;
}

}  // namespace reader
