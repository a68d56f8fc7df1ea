// Model: RAII over llama_model / llama_context, tokenizer helpers, tree-capable decode.
#include "reader/model.h"

#include <llama.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <thread>
#include <vector>

#include "util/hash.h"

namespace reader {
namespace {

// Batches above this many tokens are not kept in the graph cache: prefill chunks and large
// batched verifications cost 10 ms or more, where a rebuild (~0.4 ms) matters little, and
// each kept graph holds a compute buffer for its logits (a 262k vocabulary: 1 MiB a token).
constexpr int kGraphCacheMaxTokens = 32;

// llama.cpp has one process-wide log callback. We keep it quiet unless a live Model asked
// for its log (verbose), and remember the last error line per thread, so a load that fails
// on one thread is explained by its own error, not by another thread's.
std::atomic<int> g_verbose_models{0};
thread_local std::string t_last_error;

void log_callback(ggml_log_level level, const char* text, void* /*user*/) {
  if (level == GGML_LOG_LEVEL_ERROR) {
    t_last_error = text;
    while (!t_last_error.empty() && (t_last_error.back() == '\n' || t_last_error.back() == ' '))
      t_last_error.pop_back();
  }
  if (g_verbose_models.load(std::memory_order_relaxed) > 0) fputs(text, stderr);
}

void init_backend_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    llama_log_set(log_callback, nullptr);
    llama_backend_init();
  });
}

std::string last_llama_error() {
  return t_last_error.empty() ? "" : " (llama.cpp: " + t_last_error + ")";
}

// A GGUF starts with the magic "GGUF"; checking it first turns "not a model" into a clear
// error instead of whatever the loader makes of random bytes.
void check_gguf_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw ModelError("model file not found: " + path.string());
  if (std::filesystem::is_directory(path, ec))
    throw ModelError("model path is a directory, not a GGUF file: " + path.string());
  std::ifstream in(path, std::ios::binary);
  char magic[4] = {};
  if (!in || !in.read(magic, 4))
    throw ModelError("cannot read model file (empty or unreadable): " + path.string());
  if (std::memcmp(magic, "GGUF", 4) != 0)
    throw ModelError("not a GGUF model file (bad magic): " + path.string());
}

uint64_t vocabulary_fingerprint(const llama_vocab* vocab, int n_vocab) {
  Fnv1a64 h;
  h.add_value(static_cast<uint64_t>(n_vocab));
  for (Token t = 0; t < n_vocab; ++t) {
    const char* text = llama_vocab_get_text(vocab, t);
    h.add(text, text ? std::strlen(text) + 1 : 0);
  }
  return h.value();
}

ggml_type kv_cache_type(const std::string& name) {
  if (name == "f16") return GGML_TYPE_F16;
  if (name == "f32") return GGML_TYPE_F32;
  if (name == "q8_0") return GGML_TYPE_Q8_0;
  throw ModelError("unknown KV-cache type '" + name + "' (expected f16, f32 or q8_0)");
}

// Whether llama_print_system_info() lists `feature` ("AVX512 = 1": what ggml was compiled for
// and found).
bool llama_reports(std::string_view feature) {
  static const std::string info = [] {
    // Our log callback first: reading the system info loads the backends, and a GPU
    // backend announces itself on stderr as it loads.
    init_backend_once();
    return std::string(llama_print_system_info());
  }();
  return info.find(feature) != std::string::npos;
}

}  // namespace

bool flash_attn_by_default() {
#if defined(__x86_64__) || defined(__i386__)
  // AVX-512F, as the patch's kernel needs (with AVX-512DQ, which every AVX-512 CPU since
  // Skylake has).
  static const bool on = llama_reports("AVX512 = 1") && __builtin_cpu_supports("avx512dq");
  return on;
#else
  return false;
#endif
}

// Reused llama_batch storage, sized for n_batch tokens x n_seq_max ids each.
struct Model::BatchBuffer {
  llama_batch batch{};
  int capacity = 0;
  int max_ids = 0;
  BatchBuffer(int n, int ids) : batch(llama_batch_init(n, 0, ids)), capacity(n), max_ids(ids) {}
  ~BatchBuffer() { llama_batch_free(batch); }
};

std::unique_ptr<Model> Model::load(const ModelOptions& options) {
  if (options.n_seq_max < 1 || options.n_seq_max > 256)
    throw ModelError("n_seq_max must be in 1..256, got " + std::to_string(options.n_seq_max));
  if (options.n_ctx < 16)
    throw ModelError("context size too small: " + std::to_string(options.n_ctx));
  if (options.gpu_layers < -1)
    throw ModelError("gpu layers must be -1 (all) or more, got " +
                     std::to_string(options.gpu_layers));
  check_gguf_file(options.path);
  init_backend_once();
  if (options.gpu_layers != 0 && !llama_supports_gpu_offload())
    throw ModelError(
        "no GPU to offload layers to: llama.cpp needs a GPU backend and a device (README, "
        "\"GPU\")");
  t_last_error.clear();

  std::unique_ptr<Model> m(new Model());
  m->options_ = options;
  if (options.verbose) g_verbose_models.fetch_add(1);  // the destructor gives it back
  llama_model_params mp = llama_model_default_params();
  mp.n_gpu_layers = options.gpu_layers;
  mp.use_extra_bufts = options.extra_buffers;
  mp.vocab_only = options.vocab_only;
  m->model_ = llama_model_load_from_file(options.path.c_str(), mp);
  if (!m->model_)
    throw ModelError("failed to load model " + options.path.string() + last_llama_error());

  m->vocab_ = llama_model_get_vocab(m->model_);
  m->n_vocab_ = llama_vocab_n_tokens(m->vocab_);
  m->fingerprint_ = vocabulary_fingerprint(m->vocab_, m->n_vocab_);
  if (options.vocab_only) return m;

  const int threads = options.n_threads > 0
                          ? options.n_threads
                          : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  llama_context_params cp = llama_context_default_params();
  // llama.cpp's n_ctx is the total: split evenly between the streams when not unified.
  cp.n_ctx = static_cast<uint32_t>(options.n_ctx) *
             (options.kv_unified ? 1u : static_cast<uint32_t>(options.n_seq_max));
  cp.n_batch = static_cast<uint32_t>(options.n_batch);
  cp.n_ubatch = static_cast<uint32_t>(options.n_batch);
  cp.n_seq_max = static_cast<uint32_t>(options.n_seq_max);
  cp.n_threads = threads;
  cp.n_threads_batch = threads;
  cp.kv_unified = options.kv_unified;
  cp.swa_full = true;  // sliding-window models: branches may be dropped at any position
  cp.flash_attn_type =
      options.flash_attn ? LLAMA_FLASH_ATTN_TYPE_ENABLED : LLAMA_FLASH_ATTN_TYPE_DISABLED;
  cp.type_k = cp.type_v = kv_cache_type(options.kv_type);
  if (cp.type_v != GGML_TYPE_F16 && cp.type_v != GGML_TYPE_F32 && !options.flash_attn)
    throw ModelError("a quantized KV cache (" + options.kv_type + ") needs flash attention");
  cp.no_perf = true;
  m->ctx_ = llama_init_from_model(m->model_, cp);
  if (!m->ctx_) {
    llama_model_free(m->model_);
    m->model_ = nullptr;
    throw ModelError("failed to create a context for " + options.path.string() +
                     last_llama_error());
  }
#if READER_HAVE_GRAPH_CACHE
  llama_set_graph_cache(m->ctx_, options.graph_cache, kGraphCacheMaxTokens);
#endif
  m->n_ctx_ = static_cast<int>(llama_n_ctx_seq(m->ctx_));
  // llama.cpp caps a decode at the context size asked for, before it rounds the context up
  // (to 256 cells): a short --ctx decodes at most that many tokens at once, so report what
  // llama.cpp really took, and every caller chunks by it.
  m->options_.n_batch = static_cast<int>(llama_n_batch(m->ctx_));
  // Fillers only in a unified KV cache (with a stream per sequence llama.cpp splits a batch
  // into equal shares per sequence, and one sequence's fillers would split it) of attention
  // layers (a recurrent state cannot forget them); elsewhere the model does not pad.
  m->options_.pad_decodes = options.pad_decodes && options.kv_unified &&
                            !llama_model_is_recurrent(m->model_) &&
                            !llama_model_is_hybrid(m->model_);
  m->batch_ = std::make_unique<BatchBuffer>(m->options_.n_batch, options.n_seq_max);
  return m;
}

std::size_t Model::kv_bytes_per_cell() const {
  // From the GGUF's metadata: a vocab-only load has no hyperparameters (llama.cpp aborts
  // when asked for them), but it keeps every key.
  char text[256] = {0};
  const auto meta = [&](const std::string& key) -> std::string {
    return llama_model_meta_val_str(model_, key.c_str(), text, sizeof text) > 0 ? text : "";
  };
  const std::string arch = meta("general.architecture");
  const auto meta_int = [&](const std::string& key, int fallback) {
    const int v = std::atoi(meta(arch + "." + key).c_str());  // 0 for absent or per-layer arrays
    return v > 0 ? v : fallback;
  };
  const int n_layer = meta_int("block_count", 1);
  const int n_head = meta_int("attention.head_count", 1);
  const int n_head_kv = meta_int("attention.head_count_kv", n_head);
  const int head_dim = meta_int("embedding_length", n_head) / n_head;
  const int k_len = meta_int("attention.key_length", head_dim);
  const int v_len = meta_int("attention.value_length", head_dim);
  // The element size of the type the context is created with (q8_0: 34 bytes per block of
  // 32), as a ratio: ggml_row_size would abort on a row that is not whole blocks.
  const ggml_type type = kv_cache_type(options_.kv_type);
  return static_cast<std::size_t>(n_layer) * static_cast<std::size_t>(n_head_kv) *
         static_cast<std::size_t>(k_len + v_len) * ggml_type_size(type) /
         static_cast<std::size_t>(ggml_blck_size(type));
}

Model::~Model() {
  if (options_.verbose) g_verbose_models.fetch_sub(1);
  batch_.reset();
  if (ctx_) llama_free(ctx_);
  if (model_) llama_model_free(model_);
}

std::string Model::offload_description() const {
  if (options_.gpu_layers == 0) return "";
  std::string gpus;
  for (size_t i = 0; i < ggml_backend_dev_count(); ++i) {
    ggml_backend_dev_t dev = ggml_backend_dev_get(i);
    if (ggml_backend_dev_type(dev) == GGML_BACKEND_DEVICE_TYPE_GPU)
      gpus += std::string(gpus.empty() ? "" : ", ") + ggml_backend_dev_description(dev);
  }
  const std::string layers = options_.gpu_layers < 0 ? "all" : std::to_string(options_.gpu_layers);
  return "GPU " + (gpus.empty() ? std::string("?") : gpus) + " (" + layers + " layers)";
}

std::string Model::description() const {
  char buf[256];
  llama_model_desc(model_, buf, sizeof buf);
  return buf;
}

Tokens Model::tokenize(std::string_view text, bool add_special, bool parse_special) const {
  if (text.size() > static_cast<size_t>(INT32_MAX / 2))
    throw ModelError("text too long to tokenize");
  Tokens out(text.size() + 8);
  int n = llama_tokenize(vocab_, text.data(), static_cast<int32_t>(text.size()), out.data(),
                         static_cast<int32_t>(out.size()), add_special, parse_special);
  if (n < 0) {
    out.resize(static_cast<size_t>(-n));
    n = llama_tokenize(vocab_, text.data(), static_cast<int32_t>(text.size()), out.data(),
                       static_cast<int32_t>(out.size()), add_special, parse_special);
  }
  if (n < 0) throw ModelError("tokenization failed");
  out.resize(static_cast<size_t>(n));
  return out;
}

std::string Model::token_bytes(Token token) const {
  char buf[256];
  int n = llama_token_to_piece(vocab_, token, buf, sizeof buf, 0, false);
  if (n >= 0) return std::string(buf, static_cast<size_t>(n));
  std::string big(static_cast<size_t>(-n), '\0');
  n = llama_token_to_piece(vocab_, token, big.data(), static_cast<int32_t>(big.size()), 0, false);
  big.resize(static_cast<size_t>(std::max(n, 0)));
  return big;
}

std::string Model::detokenize(TokenSpan tokens) const {
  std::string s;
  for (Token t : tokens) s += token_bytes(t);
  return s;
}

bool Model::is_eog(Token token) const { return llama_vocab_is_eog(vocab_, token); }

std::string Model::apply_chat_template(std::string_view user_message) const {
  const ChatMessage msg{"user", std::string(user_message)};
  return apply_chat_template(std::span(&msg, 1));
}

const char* Model::chat_template() const {
  const char* tmpl = llama_model_chat_template(model_, nullptr);
  if (!tmpl) {
    // Some GGUFs (e.g. the Gemma 3 270M one) carry no template; llama.cpp has the family's.
    char arch[64] = {};
    llama_model_meta_val_str(model_, "general.architecture", arch, sizeof arch);
    if (std::string_view(arch).starts_with("gemma")) tmpl = "gemma";
  }
  return tmpl;
}

std::string Model::apply_chat_template(std::span<const ChatMessage> messages,
                                       bool add_assistant) const {
  const char* tmpl = chat_template();
  if (!tmpl) throw ModelError("this model has no chat template");
  if (messages.empty()) throw ModelError("a chat prompt needs at least one message");
  std::vector<llama_chat_message> msgs;
  size_t chars = 0;
  for (const ChatMessage& m : messages) {
    msgs.push_back({m.role.c_str(), m.content.c_str()});
    chars += m.content.size();
  }
  std::vector<char> buf(chars * 2 + 512);
  int n = llama_chat_apply_template(tmpl, msgs.data(), msgs.size(), add_assistant, buf.data(),
                                    static_cast<int32_t>(buf.size()));
  if (n > static_cast<int>(buf.size())) {
    buf.resize(static_cast<size_t>(n));
    n = llama_chat_apply_template(tmpl, msgs.data(), msgs.size(), add_assistant, buf.data(),
                                  static_cast<int32_t>(buf.size()));
  }
  if (n < 0) throw ModelError("the model's chat template is not supported by llama.cpp");
  return std::string(buf.data(), static_cast<size_t>(n));
}

namespace {

// Appends fillers to `lb` (holding `n` tokens) up to the next power of two, as decode() pads
// with ModelOptions::pad_decodes. They continue the last token's first sequence, `seq`, past
// its largest position in the batch, so no real token's query sees them, and want logits when
// every real token does, so that padded batches of one size share one graph. Returns the
// first filler position (-1: none added), from where their cells are to be dropped.
int append_fillers(llama_batch& lb, int n, int capacity, llama_seq_id seq) {
  if (n < 2 || n > kGraphCacheMaxTokens) return -1;
  const int padded = std::min(static_cast<int>(std::bit_ceil(static_cast<unsigned>(n))), capacity);
  if (padded == n) return -1;
  int first = 0;
  bool all_logits = true;
  for (int i = 0; i < n; ++i) {
    for (int s = 0; s < lb.n_seq_id[i]; ++s)
      if (lb.seq_id[i][s] == seq) first = std::max(first, lb.pos[i] + 1);
    all_logits = all_logits && lb.logits[i];
  }
  for (int i = n; i < padded; ++i) {
    lb.token[i] = lb.token[n - 1];
    lb.pos[i] = first + (i - n);
    lb.n_seq_id[i] = 1;
    lb.seq_id[i][0] = seq;
    lb.logits[i] = all_logits;
  }
  lb.n_tokens = padded;
  return first;
}

}  // namespace

void Model::decode(std::span<const BatchToken> tokens) {
  if (tokens.empty()) return;
  if (!ctx_) throw ModelError("model was loaded for its vocabulary only");
  BatchBuffer& b = *batch_;
  if (static_cast<int>(tokens.size()) > b.capacity)
    throw ModelError("decode batch of " + std::to_string(tokens.size()) +
                     " tokens exceeds n_batch " + std::to_string(b.capacity));
  llama_batch& lb = b.batch;
  lb.n_tokens = 0;
  for (const BatchToken& t : tokens) {
    if (t.seq_ids.empty() || static_cast<int>(t.seq_ids.size()) > b.max_ids)
      throw ModelError("a batch token needs 1.." + std::to_string(b.max_ids) + " sequence ids");
    const int i = lb.n_tokens++;
    lb.token[i] = t.token;
    lb.pos[i] = t.pos;
    lb.n_seq_id[i] = static_cast<int32_t>(t.seq_ids.size());
    for (size_t s = 0; s < t.seq_ids.size(); ++s) lb.seq_id[i][s] = t.seq_ids[s];
    lb.logits[i] = t.want_logits;
  }
  const int n = lb.n_tokens;
  const llama_seq_id seq = lb.seq_id[n - 1][0];
  const int filler_pos = options_.pad_decodes ? append_fillers(lb, n, b.capacity, seq) : -1;
  int rc = llama_decode(ctx_, lb);
  if (filler_pos >= 0) {
    if (rc == 0) {
      if (!llama_memory_seq_rm(memory(), seq, filler_pos, -1))
        throw ModelError("could not drop the padding of a decode from the KV cache");
    } else if (rc == 1) {  // no room for the fillers: the batch alone may still fit
      lb.n_tokens = n;
      rc = llama_decode(ctx_, lb);
    }
  }
  if (rc == 1)
    throw ModelError("context full: no KV-cache room for " + std::to_string(tokens.size()) +
                     " more tokens (n_ctx " + std::to_string(n_ctx_) + ")");
  if (rc != 0)
    throw ModelError("llama_decode failed with code " + std::to_string(rc) + last_llama_error());
  // A GPU decodes asynchronously; wait here, so that a decode's time is its own (engine.cpp
  // times steps by it) rather than landing on the first read of its logits.
  if (options_.gpu_layers != 0) llama_synchronize(ctx_);
}

const float* Model::logits(int batch_index) const {
  const float* row = llama_get_logits_ith(ctx_, batch_index);
  if (!row) throw ModelError("no logits for batch row " + std::to_string(batch_index));
  return row;
}

llama_memory_i* Model::memory() const {
  if (!ctx_) throw ModelError("model was loaded for its vocabulary only");
  return llama_get_memory(ctx_);
}

bool Model::rows_batch_invariant() const {
  return options_.gpu_layers == 0 && options_.flash_attn && options_.kv_type == "f16" &&
         flash_attn_by_default();
}

bool repack_by_default() {
  static const bool on = llama_reports("AVX512 = 1") && llama_reports("AVX512_VNNI = 1") &&
                         llama_reports("REPACK = 1") && !llama_reports("AMX_INT8 = 1");
  return on;
}

bool Model::trees_bitwise() const {
  return rows_batch_invariant() && llama_model_n_swa(model_) == 0;
}

void Model::kv_clear() {
  llama_memory_clear(memory(), true);
  kv_holes_ = 0;
}
bool Model::kv_compact(int seq) {
  for (int other = 0; other < options_.n_seq_max; ++other)
    if (other != seq && llama_memory_seq_pos_max(memory(), other) >= 0) return false;
  const size_t size = llama_state_seq_get_size(ctx_, seq);
  if (size == 0) return false;
  std::vector<std::uint8_t> cells(size);
  if (llama_state_seq_get_data(ctx_, cells.data(), size, seq) != size) return false;
  // Restoring removes the sequence's cells first, and with no other cells in use the
  // patched find_slot places them from the first cell on (llama.cpp-kv-append.patch).
  if (llama_state_seq_set_data(ctx_, cells.data(), size, seq) != size)
    throw ModelError("KV cache compaction could not put sequence " + std::to_string(seq) +
                     "'s cells back");
  kv_holes_ = 0;
  return true;
}
bool Model::kv_compact_fits(int seq, size_t max_bytes) const {
  const int cells = llama_memory_seq_pos_max(memory(), seq) + 1;
  if (cells <= 0) return false;
  const size_t size = llama_state_seq_get_size(ctx_, seq);
  return size / static_cast<size_t>(cells) * static_cast<size_t>(n_ctx_) <= max_bytes;
}
void Model::kv_seq_rm(int seq, int p0, int p1) {
  if (!llama_memory_seq_rm(memory(), seq, p0, p1))
    throw ModelError("KV cache refused to remove a partial sequence");
}
void Model::kv_seq_cp(int src, int dst, int p0, int p1) {
  llama_memory_seq_cp(memory(), src, dst, p0, p1);
}
void Model::kv_seq_keep(int seq) { llama_memory_seq_keep(memory(), seq); }
int Model::kv_pos_min(int seq) const { return llama_memory_seq_pos_min(memory(), seq); }
int Model::kv_pos_max(int seq) const { return llama_memory_seq_pos_max(memory(), seq); }

std::filesystem::path default_model_path() {
  return std::filesystem::path(READER_MODELS_DIR) / "SmolLM2-135M-Instruct.Q8_0.gguf";
}
std::filesystem::path default_datastore_path(const std::filesystem::path& model_path) {
  return std::filesystem::path(READER_MODELS_DIR) / (model_path.stem().string() + ".rds");
}

std::filesystem::path gemma3_model_path() {
  return std::filesystem::path(READER_MODELS_DIR) / "gemma-3-270m.Q8_0.gguf";
}

void quantize_model(const std::filesystem::path& input, const std::filesystem::path& output,
                    std::string_view type, int n_threads) {
  static constexpr std::pair<std::string_view, llama_ftype> kTypes[] = {
      {"q8_0", LLAMA_FTYPE_MOSTLY_Q8_0},
      {"q4_0", LLAMA_FTYPE_MOSTLY_Q4_0},
      {"q4_1", LLAMA_FTYPE_MOSTLY_Q4_1},
      {"f16", LLAMA_FTYPE_MOSTLY_F16}};
  const auto* it = std::find_if(std::begin(kTypes), std::end(kTypes),
                                [&](const auto& kv) { return kv.first == type; });
  if (it == std::end(kTypes))
    throw ModelError("unknown quantization type '" + std::string(type) +
                     "' (expected q8_0, q4_0, q4_1 or f16)");
  std::filesystem::path tmp = output;
  tmp += ".part";
  // The output is written under this name first: it must not be the input itself.
  std::error_code same_ec;
  if (std::filesystem::equivalent(tmp, input, same_ec))
    throw ModelError("the output's temporary file " + tmp.string() +
                     " is the input: choose another output name");
  check_gguf_file(input);
  std::error_code dir_ec;
  const std::filesystem::path dir = output.parent_path();
  if (!dir.empty() && !std::filesystem::is_directory(dir, dir_ec))
    throw ModelError("output directory does not exist: " + dir.string());
  init_backend_once();
  llama_model_quantize_params qp = llama_model_quantize_default_params();
  qp.nthread = n_threads;
  qp.ftype = it->second;
  qp.allow_requantize = true;
  qp.pure = true;  // every matrix, embeddings and output included, in one type
  if (llama_model_quantize(input.c_str(), tmp.c_str(), &qp) != 0) {
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
    throw ModelError("quantizing " + input.string() + " failed" + last_llama_error());
  }
  std::error_code ec;
  std::filesystem::rename(tmp, output, ec);
  if (ec) throw ModelError("cannot write " + output.string() + ": " + ec.message());
}

}  // namespace reader
