// JSON text for result files and HTTP bodies, from any app.
//
// Generated text may end inside a UTF-8 character (a token budget cut it) or hold bytes that
// are not UTF-8 at all; nlohmann's default writer throws on them, after the work that made
// the text is done. Here such bytes become U+FFFD instead. Token comparisons (lossless
// checks) never go through this text.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace reader {

inline std::string dump_json(const nlohmann::json& j, int indent = -1) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace reader
