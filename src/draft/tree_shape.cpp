// TreeShape: validation and the JSON file format behind --tree.
//
// {"speculator": [[-1,0],[-1,1],[0,0]],   // [parent, rank] per template node
//  "d_search": 8, "d_deep": 4, "d_copy": 16, "deepen_at": 2, "max_suffix_len": 8,
//  "adaptive": false, "single_path": true}
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "reader/drafter.h"
#include "util/json_int.h"
#include "util/read_file.h"

namespace reader {

int TreeShape::budget() const {
  return 1 + static_cast<int>(speculator.size()) + std::max(0, d_search) + std::max(0, d_deep) +
         std::max(0, d_copy);
}

void TreeShape::validate(int max_branches) const {
  const auto bad = [](const std::string& what) {
    throw std::invalid_argument("tree shape: " + what);
  };
  std::vector<int> children(speculator.size(), 0);
  int root_children = 0;
  for (size_t i = 0; i < speculator.size(); ++i) {
    const TemplateNode& n = speculator[i];
    if (n.parent < -1 || n.parent >= static_cast<int>(i))
      bad("node " + std::to_string(i) + " has parent " + std::to_string(n.parent) +
          " (must be -1 or an earlier node)");
    if (n.rank < 0 || n.rank >= 64) bad("node " + std::to_string(i) + " has rank outside 0..63");
    (n.parent < 0 ? root_children : children[static_cast<size_t>(n.parent)])++;
  }
  if (d_search < 0 || d_search > 128) bad("d_search must be in 0..128");
  if (d_deep < 0 || d_deep > 128) bad("d_deep must be in 0..128");
  if (d_copy < 0 || d_copy > 128) bad("d_copy must be in 0..128");
  if (deepen_at < 1 || deepen_at > 16) bad("deepen_at must be in 1..16");
  if (max_suffix_len < 1 || max_suffix_len > 64) bad("max_suffix_len must be in 1..64");
  int leaves = 0;
  for (int c : children) leaves += c == 0;
  leaves += (d_search > 0) + (d_deep > 0) + (d_copy > 0);
  if (leaves > max_branches)
    bad(std::to_string(leaves) + " branches exceed the " + std::to_string(max_branches) +
        " sequence ids available");
  if (budget() > 512) bad("more than 512 nodes");
}

TreeShape parse_tree_shape(std::string_view text, const std::string& where) {
  TreeShape s;
  try {
    const nlohmann::json j = nlohmann::json::parse(text);
    if (!j.is_object()) throw std::invalid_argument("top level must be an object");
    for (const auto& [key, value] : j.items()) {
      if (key == "speculator") {
        for (const auto& node : value) {
          if (!node.is_array() || node.size() != 2)
            throw std::invalid_argument("speculator nodes are [parent, rank] pairs");
          s.speculator.push_back(
              {detail::json_int(node[0], "parent"), detail::json_int(node[1], "rank")});
        }
      } else if (key == "d_search")
        s.d_search = detail::json_int(value, "d_search");
      else if (key == "d_deep")
        s.d_deep = detail::json_int(value, "d_deep");
      else if (key == "d_copy")
        s.d_copy = detail::json_int(value, "d_copy");
      else if (key == "deepen_at")
        s.deepen_at = detail::json_int(value, "deepen_at");
      else if (key == "max_suffix_len")
        s.max_suffix_len = detail::json_int(value, "max_suffix_len");
      else if (key == "adaptive")
        s.adaptive = value.get<bool>();
      else if (key == "single_path")
        s.single_path = value.get<bool>();
      else
        throw std::invalid_argument("unknown key \"" + key + "\"");
    }
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument("malformed tree shape " + where + ": " + e.what());
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("malformed tree shape " + where + ": " + e.what());
  }
  return s;
}

TreeShape load_tree_shape(const std::filesystem::path& path) {
  std::string problem;
  const std::optional<std::string> text = read_small_file(path, problem);
  if (!text)
    throw std::invalid_argument("cannot read tree shape file " + path.string() + ": " + problem);
  return parse_tree_shape(*text, path.string());
}

std::string tree_shape_to_json(const TreeShape& s) {
  nlohmann::json spec = nlohmann::json::array();
  for (const auto& n : s.speculator) spec.push_back({n.parent, n.rank});
  const nlohmann::json j = {{"speculator", spec},       {"d_search", s.d_search},
                            {"d_deep", s.d_deep},       {"d_copy", s.d_copy},
                            {"deepen_at", s.deepen_at}, {"max_suffix_len", s.max_suffix_len},
                            {"adaptive", s.adaptive},   {"single_path", s.single_path}};
  return j.dump();
}

}  // namespace reader
