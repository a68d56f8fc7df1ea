// --prompts-file: a user's prompts as JSON Lines (format in prompt_sets.h).
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <stdexcept>

#include "prompt_sets.h"

namespace reader {
namespace {

using nlohmann::json;

// Thrown inside the parser; the caller prefixes FILE:LINE.
struct LineError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string string_field(const json& row, const char* key) {
  const json& v = row.at(key);
  if (!v.is_string() || v.get<std::string>().empty())
    throw LineError(std::string("\"") + key + "\" must be a non-empty string");
  return v.get<std::string>();
}

// The item of one line (its id and set filled in by the caller).
PromptItem parse_item(const json& row) {
  if (!row.is_object()) throw LineError("expected a JSON object");
  for (const auto& [key, value] : row.items())
    if (key != "prompt" && key != "messages" && key != "set" && key != "id")
      throw LineError("unknown field \"" + key + "\" (prompt, messages, set, id)");
  const bool has_prompt = row.contains("prompt"), has_messages = row.contains("messages");
  if (has_prompt == has_messages)
    throw LineError("give exactly one of \"prompt\" and \"messages\"");
  PromptItem it;
  if (has_prompt) {
    it.user = string_field(row, "prompt");
  } else {
    const json& msgs = row["messages"];
    if (!msgs.is_array() || msgs.empty()) throw LineError("\"messages\" must be a non-empty array");
    for (size_t i = 0; i < msgs.size(); ++i) {
      const json& m = msgs[i];
      const std::string where = "messages[" + std::to_string(i) + "]";
      if (!m.is_object() || !m.contains("role") || !m["role"].is_string() || !m.contains("content"))
        throw LineError(where + " needs \"role\" and \"content\"");
      Turn t{m["role"].get<std::string>(), "", false};
      if (t.role != "system" && t.role != "user" && t.role != "assistant")
        throw LineError(where + ": role must be system, user or assistant");
      if (m["content"].is_null() && t.role == "assistant" && i > 0)
        t.model_writes = true;
      else if (m["content"].is_string())
        t.content = m["content"].get<std::string>();
      else
        throw LineError(where +
                        ": content must be a string (or null for the model's answer to an "
                        "earlier message)");
      it.history.push_back(std::move(t));
    }
    if (it.history.back().role != "user" || it.history.back().content.empty())
      throw LineError("the last message must be a non-empty user message");
    it.user = std::move(it.history.back().content);
    it.history.pop_back();
  }
  it.context = it.user;
  return it;
}

std::string default_set_name(const std::filesystem::path& path) {
  std::filesystem::path stem = path.filename();
  for (const char* ext : {".gz", ".jsonl", ".json"})
    if (stem.extension() == ext) stem = stem.stem();
  return stem.string();
}

}  // namespace

std::vector<std::pair<std::string, std::vector<PromptItem>>> load_prompts_file(
    const std::filesystem::path& path, int limit, int offset) {
  if (offset < 0) throw std::invalid_argument("prompt offset must be >= 0");
  std::istringstream in(read_file_maybe_gz(path));
  std::vector<std::pair<std::string, std::vector<PromptItem>>> sets;
  std::map<std::string, size_t> set_index;
  std::set<std::pair<std::string, std::string>> ids;  // (set, id) seen
  std::string line;
  for (int line_no = 1; std::getline(in, line); ++line_no) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::string where = path.string() + ":" + std::to_string(line_no) + ": ";
    try {
      const json row = json::parse(line);
      PromptItem it = parse_item(row);
      const std::string set =
          row.contains("set") ? string_field(row, "set") : default_set_name(path);
      // Set names head table columns and chart labels.
      if (set.empty() || set.find_first_of("|\r\n\t") != std::string::npos)
        throw LineError("set names must be non-empty, without '|', tabs or line breaks");
      if (row.contains("id"))
        // A number is its own text: 18446744073709551615 stays that, never -1.
        it.id = row["id"].is_number_integer() ? row["id"].dump() : string_field(row, "id");
      else
        it.id = set + "/" + std::to_string(line_no);
      if (!ids.insert({set, it.id}).second)
        throw LineError("duplicate id \"" + it.id + "\" in set \"" + set + "\"");
      auto [pos, added] = set_index.try_emplace(set, sets.size());
      if (added) sets.emplace_back(set, std::vector<PromptItem>{});
      sets[pos->second].second.push_back(std::move(it));
    } catch (const json::exception&) {
      throw std::runtime_error(where + "malformed JSON");
    } catch (const LineError& e) {
      throw std::runtime_error(where + e.what());
    }
  }
  if (sets.empty()) throw std::runtime_error(path.string() + ": no prompts");
  for (auto& [name, items] : sets) {
    if (static_cast<size_t>(offset) >= items.size())
      throw std::runtime_error(path.string() + ": set \"" + name + "\" has " +
                               std::to_string(items.size()) + " prompts, none after offset " +
                               std::to_string(offset));
    items.erase(items.begin(), items.begin() + offset);
    if (limit > 0 && items.size() > static_cast<size_t>(limit))
      items.resize(static_cast<size_t>(limit));
  }
  return sets;
}

}  // namespace reader
