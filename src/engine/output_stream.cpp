#include "engine/output_stream.h"

#include <algorithm>

namespace reader {
namespace {

// Length of the longest prefix of s that ends on a UTF-8 character boundary.
size_t complete_utf8_prefix(std::string_view s) {
  size_t n = s.size();
  for (size_t back = 1; back <= 4 && back <= n; ++back) {
    const auto c = static_cast<unsigned char>(s[n - back]);
    if ((c & 0xC0) == 0x80) continue;  // continuation byte: keep looking for the lead
    const size_t need = c < 0x80           ? 1
                        : (c >> 5) == 0x6  ? 2
                        : (c >> 4) == 0xE  ? 3
                        : (c >> 3) == 0x1E ? 4
                                           : 1;
    return need > back ? n - back : n;
  }
  return n;
}

}  // namespace

std::string_view to_string(StopReason reason) {
  switch (reason) {
    case StopReason::kMaxTokens:
      return "max_tokens";
    case StopReason::kEndOfGeneration:
      return "eos";
    case StopReason::kStopString:
      return "stop_string";
    case StopReason::kContextFull:
      return "context_full";
    case StopReason::kCancelled:
      return "cancelled";
  }
  return "?";
}

std::string_view to_string(DraftSource source) {
  switch (source) {
    case DraftSource::kModel:
      return "model";
    case DraftSource::kSpeculator:
      return "speculator";
    case DraftSource::kWidening:
      return "widening";
    case DraftSource::kDeepening:
      return "deepening";
    case DraftSource::kSuffix:
      return "suffix";
    case DraftSource::kCopy:
      return "copy";
    case DraftSource::kCount:
      break;
  }
  return "?";
}

OutputStream::OutputStream(const Model& model, const GenerationOptions& options,
                           const TextCallback& on_text, int context_tokens)
    : model_(model),
      options_(options),
      on_text_(on_text),
      context_room_(model.n_ctx() - context_tokens) {
  for (const auto& s : options.stop) max_stop_len_ = std::max(max_stop_len_, s.size());
  if (options.max_tokens <= 0) done_ = true;
}

void OutputStream::cancel() {
  if (!done_) stop(StopReason::kCancelled);
}

void OutputStream::stop(StopReason reason) {
  done_ = true;
  result_.stop_reason = reason;
}

bool OutputStream::push(Token token) {
  if (done_) return false;
  if (model_.is_eog(token)) {
    stop(StopReason::kEndOfGeneration);
    return false;
  }
  result_.tokens.push_back(token);
  const size_t before = result_.text.size();
  result_.text += model_.token_bytes(token);
  if (max_stop_len_ > 0) {
    // Only a stop string that ends inside the new bytes can be new.
    const size_t from = before >= max_stop_len_ ? before - max_stop_len_ + 1 : 0;
    size_t cut = std::string::npos;
    for (const auto& s : options_.stop) {
      if (s.empty()) continue;
      const size_t at = result_.text.find(s, from);
      if (at != std::string::npos) cut = std::min(cut, at);
    }
    if (cut != std::string::npos) {
      result_.text.resize(cut);
      stop(StopReason::kStopString);
      return false;
    }
  }
  if (static_cast<int>(result_.tokens.size()) >= options_.max_tokens) {
    stop(StopReason::kMaxTokens);
  } else if (static_cast<int>(result_.tokens.size()) >= context_room_) {
    stop(StopReason::kContextFull);
  }
  emit_ready(false);
  return !done_;
}

void OutputStream::emit_ready(bool final_flush) {
  if (!on_text_) return;
  size_t ready = result_.text.size();
  if (!final_flush && !done_) {
    ready =
        max_stop_len_ > 1 ? (ready > max_stop_len_ - 1 ? ready - (max_stop_len_ - 1) : 0) : ready;
    ready = std::min(ready, complete_utf8_prefix(std::string_view(result_.text).substr(0, ready)));
  }
  if (ready > emitted_) {
    on_text_(std::string_view(result_.text).substr(emitted_, ready - emitted_));
    emitted_ = ready;
  }
}

GenerationResult OutputStream::finish() {
  emit_ready(true);
  result_.stats.generated_tokens = static_cast<int>(result_.tokens.size());
  return std::move(result_);
}

}  // namespace reader
