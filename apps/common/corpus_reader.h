// Reads documents for a datastore from plain text, JSONL and JSON-array files.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace reader {

struct CorpusOptions {
  std::string field;  // JSON field to read; "" = first of response/output/answer/completion/text
  bool strict =
      false;  // malformed JSON lines: false = skip and count, true = fail with line number
  bool text_lines = false;  // plain text: one document per line instead of one per file
  // Read each record's prompt instead of its response: "instruction" (with a non-empty
  // "input" after a blank line), else "question", else "prompt" (reader datastore generate).
  bool prompts = false;
};

struct CorpusStats {
  std::uint64_t documents = 0;        // documents handed to the callback
  std::uint64_t bytes = 0;            // bytes of document text
  std::uint64_t malformed_lines = 0;  // skipped JSONL lines
  std::uint64_t missing_field = 0;    // records without the wanted field
};

// Calls on_document for every document of `path`; on_progress(bytes read so far of the file).
// Throws std::runtime_error naming the file (and line) on unreadable or malformed input.
CorpusStats read_corpus_file(const std::filesystem::path& path, const CorpusOptions& options,
                             const std::function<void(const std::string&)>& on_document);

// The fields tried, in order, when CorpusOptions::field is empty.
const std::vector<std::string>& default_document_fields();

}  // namespace reader
