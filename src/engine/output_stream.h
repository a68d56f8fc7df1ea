// OutputStream: where every engine commits tokens, one at a time, in order.
//
// Stop rules (EOS, max tokens, stop strings, context end) live here once, so a
// speculative engine that commits five tokens from one verification stops at exactly
// the token where the autoregressive engine would have.
#pragma once

#include <string>

#include "reader/generate.h"
#include "reader/model.h"

namespace reader {

class OutputStream {
 public:
  OutputStream(const Model& model, const GenerationOptions& options, const TextCallback& on_text,
               int context_tokens);
  // Commits one token; false once generation has ended (the token may be dropped).
  bool push(Token token);
  bool done() const { return done_; }
  void cancel();  // ends the output where it is (StopReason::kCancelled)
  int size() const { return static_cast<int>(result_.tokens.size()); }
  const Tokens& tokens() const { return result_.tokens; }
  // Flushes held-back text and hands over the result (call once, at the end).
  GenerationResult finish();

 private:
  void stop(StopReason reason);
  void emit_ready(bool final_flush);

  const Model& model_;
  const GenerationOptions& options_;
  const TextCallback& on_text_;
  int context_room_;         // tokens that still fit in the KV cache
  size_t max_stop_len_ = 0;  // longest stop string: that much text is held back
  size_t emitted_ = 0;       // bytes of result_.text already given to on_text_
  bool done_ = false;
  GenerationResult result_;
};

}  // namespace reader
