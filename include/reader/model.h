// Model: the base LLM (a GGUF file run by llama.cpp) and its tokenizer.
//
// It is the only place that talks to llama.cpp. Besides text <-> tokens it offers
// one primitive, decode(): a batch of tokens, each with a position and a set of
// sequence ids, evaluated in one forward pass. A draft TREE is expressed with one
// sequence id per root-to-leaf branch in a unified KV cache (a token's query sees
// cells carrying its first id), so one call verifies a whole tree, or one tree per
// sequence for several sequences. The KV-cache operations let the caller keep the
// accepted path and drop the rest.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include "reader/tokens.h"

struct llama_model;
struct llama_context;
struct llama_vocab;
struct llama_memory_i;

namespace reader {

// Any failure to load, tokenize or decode; the message is one line for the user.
class ModelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Whether flash attention is on by default: where llama.cpp was built for AVX-512, our patch
// (scripts/patches/llama.cpp-fattn-avx512.patch) serves F16 KV caches with a kernel that
// computes each query row the same way in any batch, so verified drafts stay bitwise, and that
// is faster than the matmul path for one token and more so for several (docs/tree-sizes.md,
// session 22). Elsewhere llama.cpp's own flash attention is neither exact nor faster here: off.
bool flash_attn_by_default();
// Whether weights are repacked by default: llama.cpp was built for AVX512-VNNI (our Q8_0
// repack) and without AMX (README, "Tree sizes").
bool repack_by_default();

struct ModelOptions {
  std::filesystem::path path;  // GGUF file
  int n_ctx = 4096;            // KV-cache cells per sequence (n_ctx() reports it)
  // true: one KV buffer that every sequence id shares (tree branches share the committed
  // prefix's cells). false: one stream of n_ctx cells per sequence id, each laid out as if
  // it ran alone, so batched outputs equal solo ones bit for bit (engine.h); drafts are
  // then chains, and n_seq_max streams are allocated.
  bool kv_unified = true;
  int n_batch = 512;   // most tokens one decode() may carry
  int n_seq_max = 64;  // sequence ids available (tree branches x sequences), <= 256
  int n_threads = 0;   // 0: all hardware threads
  bool flash_attn = flash_attn_by_default();  // llama.cpp flash attention
  // KV-cache element type: "f16" (llama.cpp's default), "f32" or "q8_0" (needs flash_attn,
  // and runs llama.cpp's own flash-attention kernel, not the patched one).
  std::string kv_type = "f16";
  // llama.cpp's "extra" weight buffers: weights repacked once at load for the CPU kernels.
  // Our patched build repacks only Q8_0, for a kernel that computes every token the same way
  // in any batch (scripts/patches/llama.cpp-repack-q8-avx512.patch), so it is on where that
  // kernel runs and llama.cpp has no Intel AMX buffers (whose matmul crashed on one VM).
  bool extra_buffers = repack_by_default();
  // Compute graphs of other batch sizes llama.cpp keeps ready (our patch
  // scripts/patches/llama.cpp-graph-cache.patch): verification changes the batch size at
  // most steps, and rebuilding a graph costs about a tenth of a one-token decode here
  // (docs/tree-sizes.md, session 23). 0: rebuild on every change of size, as upstream.
  int graph_cache = 8;
  // Layers llama.cpp offloads to a GPU (-1: all), where it was built with a GPU backend
  // (README, "GPU"). Its kernels there are not batch-invariant: greedy output equals plain
  // decoding except where rounding flips a near-tie.
  int gpu_layers = 0;
  // Pads a decode of 2..32 tokens (verification, short prompt chunks, a draft model's layers)
  // to the next power of two with filler tokens (they continue the batch's last sequence;
  // decode() drops their cells again), so verification runs five batch shapes instead of
  // thirty, and llama.cpp's CUDA backend replays a captured graph for each. Off: on an H200
  // that made READER's long steps warm but its drafting eager, and slower overall (README,
  // "GPU", session 30); on the CPU fillers cost like real tokens. load() clears it where it
  // cannot pad (a KV stream per sequence, a recurrent or hybrid model).
  bool pad_decodes = false;
  // Offloads `layers` (-1: all) with the flash-attention default that goes with a GPU:
  // llama.cpp's own kernel, the fast path there (its default too).
  void offload(int layers) {
    gpu_layers = layers;
    if (layers != 0) flash_attn = true;
  }
  bool verbose = false;     // let llama.cpp log to stderr
  bool vocab_only = false;  // tokenizer only: no weights, no context (decode throws)
};

// One message of a chat conversation.
struct ChatMessage {
  std::string role;     // "system", "user" or "assistant"
  std::string content;  // its text
};

// Where one decoded token sits: position and the sequence ids whose queries may see it.
struct BatchToken {
  Token token = 0;               // token id
  int pos = 0;                   // absolute position in its sequence
  std::span<const int> seq_ids;  // first id is the one its own query attends with
  bool want_logits = false;      // whether logits are needed for this row
};

class Model {
 public:
  // Loads the GGUF and creates a context; throws ModelError naming the problem.
  static std::unique_ptr<Model> load(const ModelOptions& options);
  ~Model();
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  // --- vocabulary -------------------------------------------------------------------
  int n_vocab() const { return n_vocab_; }
  int n_ctx() const { return n_ctx_; }  // cells one sequence may hold
  int n_batch() const { return options_.n_batch; }
  int n_seq_max() const { return options_.n_seq_max; }
  const ModelOptions& options() const { return options_; }
  std::string description() const;  // architecture, size, quantization
  // Where offloaded layers run: "" on the CPU alone, else e.g. "GPU NVIDIA H100 (all layers)".
  std::string offload_description() const;
  // add_special: prepend BOS when the model wants one. parse_special: read "<|im_end|>" etc.
  Tokens tokenize(std::string_view text, bool add_special, bool parse_special = false) const;
  // Raw bytes of one token (may be a partial UTF-8 character). Control tokens give "".
  std::string token_bytes(Token token) const;
  std::string detokenize(TokenSpan tokens) const;  // concatenated token_bytes
  bool is_eog(Token token) const;                  // end of generation (EOS, EOT, ...)
  // Whether apply_chat_template works: the GGUF has a template, or llama.cpp knows the
  // family's (Gemma).
  bool has_chat_template() const { return chat_template() != nullptr; }
  // The prompt for a one-turn chat, using the model's own template; throws if it has none.
  std::string apply_chat_template(std::string_view user_message) const;
  // The prompt for a whole conversation (oldest message first) with the same template;
  // add_assistant: end with the opening of the assistant's next turn. Throws ModelError
  // when the model has no template or `messages` is empty.
  std::string apply_chat_template(std::span<const ChatMessage> messages,
                                  bool add_assistant = true) const;
  // Stable hash of the whole vocabulary (every token's text): datastores record it.
  std::uint64_t tokenizer_fingerprint() const { return fingerprint_; }
  // Bytes of KV cache one cell of one sequence takes (keys and values of every layer, in
  // options().kv_type): what sizing a server's sequences needs. Works loaded vocab-only.
  std::size_t kv_bytes_per_cell() const;

  // --- evaluation ---------------------------------------------------------------------
  // One forward pass over the batch; throws ModelError if llama.cpp refuses it. With
  // options().pad_decodes the pass may carry fillers after the batch; the logits and the KV
  // cache it leaves are the batch's alone.
  void decode(std::span<const BatchToken> batch);
  // Logits row for the i-th token of the last decode() (which must have want_logits).
  const float* logits(int batch_index) const;

  // Whether the patched CPU kernels do all the work (flash attention over an F16 cache with
  // AVX-512, no GPU layers), so that a row's logits do not depend on what else its batch
  // holds: chains and one tree's rows come out bitwise as one-token decodes.
  bool rows_batch_invariant() const;
  // Whether whole trees verify losslessly, before and after their commit: batch-invariant
  // rows, and every layer's cache keeps a sequence's cells in position order
  // (llama.cpp-kv-append.patch; a sliding-window cache recycles cells, so not with one).
  bool trees_bitwise() const;

  // --- KV cache (positions are half-open [p0, p1); -1 means open end) -------------------
  // Cells that whole-tree steps freed between kept cells, which later cells never fill
  // (llama.cpp-kv-append.patch): the cache holds this many more cells than positions, at
  // most, until it is cleared. commit_tree() (verify.h) counts them.
  int kv_holes() const { return kv_holes_; }
  void add_kv_holes(int n) { kv_holes_ += n; }
  // Moves `seq`'s cells together at the start of the cache, in position order, so that the
  // holes are free again (kv_holes() becomes 0): its cells go out and back in through
  // llama.cpp's sequence state, bytes unchanged, laid out as autoregressive decoding lays
  // them, through a buffer of their size (see kv_compact_fits). False, with nothing changed,
  // while another sequence holds cells. Throws ModelError if the cells cannot be put back.
  bool kv_compact(int seq);
  // Whether kv_compact(seq) would copy at most `max_bytes` with every cell of the context
  // held: the size of its cells now, per cell, times the context.
  bool kv_compact_fits(int seq, size_t max_bytes) const;
  void kv_clear();
  void kv_seq_rm(int seq, int p0, int p1);
  void kv_seq_cp(int src, int dst, int p0, int p1);
  void kv_seq_keep(int seq);
  int kv_pos_min(int seq) const;  // -1 when the sequence is empty
  int kv_pos_max(int seq) const;  // -1 when the sequence is empty

  llama_context* raw_context() { return ctx_; }

 private:
  Model() = default;
  llama_memory_i* memory() const;     // throws when loaded vocab-only
  const char* chat_template() const;  // nullptr when the model has none
  ModelOptions options_;
  llama_model* model_ = nullptr;
  llama_context* ctx_ = nullptr;
  const llama_vocab* vocab_ = nullptr;
  int n_vocab_ = 0;
  int n_ctx_ = 0;
  std::uint64_t fingerprint_ = 0;
  int kv_holes_ = 0;  // see kv_holes()
  struct BatchBuffer;
  std::unique_ptr<BatchBuffer> batch_;  // reused llama_batch storage
};

// Writes `input` requantized to `type` ("q8_0", "q4_0", ...) to `output` through
// llama_model_quantize, atomically; throws ModelError naming the problem.
void quantize_model(const std::filesystem::path& input, const std::filesystem::path& output,
                    std::string_view type, int n_threads = 0);

// Default model paths: the packaged GGUFs (SmolLM2 Q4_1, Gemma 3 Q4_K_M) requantized to
// Q8_0 by scripts/setup.sh, the format whose batched kernels verify drafts cheapest here.
std::filesystem::path default_model_path();  // SmolLM2-135M-Instruct Q8_0
std::filesystem::path gemma3_model_path();   // Gemma 3 270M Q8_0
// The long-term datastore `reader datastore build` writes for a model by default, and
// `--datastore auto` opens: models/<model stem>.rds.
std::filesystem::path default_datastore_path(const std::filesystem::path& model_path);

}  // namespace reader
