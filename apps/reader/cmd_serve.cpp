// reader serve: the OpenAI-compatible server (apps/server) over the batched engine.
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <thread>

#include "cli_common.h"
#include "reader/drafter.h"
#include "reader/engine.h"
#include "reader/methods.h"
#include "server.h"

namespace reader::cli {
namespace {

constexpr int kMaxQueue = 4096;  // --queue at most

struct ServeFlags {
  ModelFlags model;
  MethodInputs inputs;
  std::string method = "reader";
  std::string host = "127.0.0.1";
  int port = 8080;
  int parallel = 0;  // 0: as many as fit (sequences_that_fit)
  int queue = 64;
  std::string api_key;
  bool api_key_given = false;             // --api-key appeared (an empty key is refused)
  bool default_max_tokens_given = false;  // else it follows a lower --max-tokens-limit
  std::string model_id;
  int max_tokens_limit = 4096;
  int default_max_tokens = 256;
  int prefill_chunk = 256;
  bool no_memory = false;
  bool no_prompt_cache = false;
  int memory_tokens = 1 << 16;
  std::string port_file;
};

// Bytes of KV cache `sequences` sequences of `cells` cells each take.
double kv_cache_bytes(const Model& model, int cells, int sequences) {
  return static_cast<double>(model.kv_bytes_per_cell()) * cells * sequences;
}

// The default --parallel: up to 32 sequences, as many as a quarter of this machine's memory
// holds in KV cache at --ctx cells each (a larger model or context gets fewer).
int sequences_that_fit(const ModelOptions& options) {
  ModelOptions vocab = options;
  vocab.vocab_only = true;  // hyperparameters only, no weights
  const double per_sequence = kv_cache_bytes(*Model::load(vocab), options.n_ctx, 1);
  const double memory =
      static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGE_SIZE));
  if (per_sequence <= 0 || memory <= 0) return 8;
  return static_cast<int>(std::clamp(memory / 4 / per_sequence, 1.0, 32.0));
}

void run_serve(const ServeFlags& f_in) {
  ServeFlags f = f_in;
  if (f.parallel < 0 || f.parallel > 256) throw UsageError("--parallel must be in 0..256");
  if (f.parallel == 0) f.parallel = sequences_that_fit(f.model.options());
  if (f.port < 0 || f.port > 65535) throw UsageError("--port must be in 0..65535");
  // Every waiting request holds an HTTP thread (server.cpp): keep their number sane.
  if (f.queue < 0 || f.queue > kMaxQueue)
    throw UsageError("--queue must be in 0.." + std::to_string(kMaxQueue));
  if (!f.port_file.empty())
    check_output_path(f.port_file, "--port-file", f.inputs.files(f.model.model_path));
  // Settings that would serve nonsense or serve it unprotected: refused at startup.
  if (f.api_key_given && f.api_key.empty())
    throw UsageError("--api-key is empty (an unset variable?): give a key or drop the flag");
  if (f.max_tokens_limit < 1) throw UsageError("--max-tokens-limit must be >= 1");
  if (!f.default_max_tokens_given)
    f.default_max_tokens = std::min(f.default_max_tokens, f.max_tokens_limit);
  if (f.default_max_tokens < 1 || f.default_max_tokens > f.max_tokens_limit)
    throw UsageError("--default-max-tokens must be in 1..--max-tokens-limit (" +
                     std::to_string(f.max_tokens_limit) + ")");
  if (f.memory_tokens < 1)
    throw UsageError("--memory-tokens must be >= 1 (--no-memory turns it off)");
  const Method method = parse_method(f.method);
  if (method == Method::kDraft) throw UsageError("reader serve does not run method 'draft'");

  // SIGTERM / SIGINT go to one waiting thread, never to a worker mid-step.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  // One KV stream per sequence: each request's output is what it would be alone.
  ModelOptions mo = f.model.options(f.parallel);
  mo.kv_unified = false;
  auto model = Model::load(mo);
  LoadedInputs inputs = load_method_inputs(f.inputs, *model, method);
  SharedDraftState shared{OutputMemory(static_cast<size_t>(f.memory_tokens)), {}, {}};
  MethodConfig config = inputs.config(method);
  if (!f.no_memory) config.shared = &shared;
  // The cost model the batch policy uses: measured once here (and cached), before serving.
  const CostModel cost = cost_model_for(*model, config.profile);
  config.cost = &cost;
  if (method != Method::kAutoregressive) (void)make_drafter(*model, config);  // sizes shared state

  EngineOptions eo;
  eo.max_sequences = f.parallel;
  eo.max_waiting = f.queue;
  eo.prefill_chunk = f.prefill_chunk;
  eo.reuse_prefix = !f.no_prompt_cache;
  eo.cost = &cost;
  Engine engine(*model, eo);

  server::ServerOptions so;
  so.host = f.host;
  so.port = f.port;
  so.api_key = f.api_key;
  so.model_id =
      f.model_id.empty() ? std::filesystem::path(f.model.model_path).stem().string() : f.model_id;
  so.limits.max_tokens_limit = f.max_tokens_limit;
  so.limits.default_max_tokens = f.default_max_tokens;
  Model& m = *model;
  server::Server server(
      m, engine,
      [&m, config, method](const server::CompletionRequest&) -> std::unique_ptr<Drafter> {
        return method == Method::kAutoregressive ? nullptr : make_drafter(m, config);
      },
      so);
  const int port = server.bind();
  std::fprintf(
      stderr,
      "reader serve: %s (%s) on http://%s:%d, method %s, %d sequence%s of %d tokens (KV cache "
      "%.0f MiB)%s\n",
      so.model_id.c_str(), model->description().c_str(), f.host.c_str(), port, f.method.c_str(),
      f.parallel, f.parallel == 1 ? "" : "s", model->n_ctx(),
      kv_cache_bytes(*model, model->n_ctx(), f.parallel) / (1 << 20),
      f.api_key.empty() ? "" : ", API key required");
  if (!f.port_file.empty()) write_file(f.port_file, std::to_string(port) + "\n");
  std::thread waiter([&server, signals] {
    int sig = 0;
    sigwait(&signals, &sig);
    if (sig != 0) {
      std::fprintf(stderr, "reader serve: %s, finishing in-flight requests\n",
                   sig == SIGTERM ? "SIGTERM" : "SIGINT");
      server.stop();
    }
  });
  server.run();
  // run() also returns if listening failed: wake the waiter so it can be joined.
  // The waiter sits in sigwait(): the signal wakes it, it does not terminate anything.
  pthread_kill(waiter.native_handle(), SIGTERM);  // NOLINT(bugprone-bad-signal-to-kill-thread)
  waiter.join();
  std::fprintf(stderr, "reader serve: stopped\n");
}

}  // namespace

void add_serve_command(CLI::App& app) {
  auto flags = std::make_shared<ServeFlags>();
  CLI::App* cmd = app.add_subcommand("serve", "OpenAI-compatible HTTP server (batched READER)");
  flags->model.ctx = 2048;
  flags->model.add_to(*cmd);
  flags->inputs.add_to(*cmd);
  cmd->add_option("--method", flags->method,
                  "decoding method (reader, retrieval, recycling, suffix, ar)")
      ->capture_default_str();
  cmd->add_option("--host", flags->host, "address to listen on")->capture_default_str();
  cmd->add_option("--port", flags->port, "port (0: any free port)")->capture_default_str();
  cmd->add_option("--parallel", flags->parallel,
                  "sequences generated at once, each with --ctx cells of KV cache (0: up to "
                  "32, as many as a quarter of the memory holds)")
      ->capture_default_str();
  cmd->add_option("--queue", flags->queue,
                  "requests that may wait while every sequence is busy (then 429; at most 4096)")
      ->capture_default_str();
  cmd->add_option("--api-key", flags->api_key, "require 'Authorization: Bearer KEY'")
      ->each([flags](const std::string&) { flags->api_key_given = true; });
  cmd->add_option("--model-id", flags->model_id, "model name to serve (default: the file's stem)");
  cmd->add_option("--max-tokens-limit", flags->max_tokens_limit, "largest max_tokens accepted")
      ->capture_default_str();
  cmd->add_option("--default-max-tokens", flags->default_max_tokens,
                  "max_tokens when a request gives none")
      ->each([flags](const std::string&) { flags->default_max_tokens_given = true; })
      ->capture_default_str();
  cmd->add_option("--prefill-chunk", flags->prefill_chunk,
                  "prompt tokens a joining request adds per step while others generate")
      ->capture_default_str();
  cmd->add_flag("--no-memory", flags->no_memory,
                "do not search earlier responses (cross-request memory)");
  cmd->add_option("--memory-tokens", flags->memory_tokens,
                  "cross-request memory size; oldest responses are dropped first")
      ->capture_default_str();
  cmd->add_flag("--no-prompt-cache", flags->no_prompt_cache,
                "recompute every prompt (no reuse of a finished request's KV cells)");
  cmd->add_option("--port-file", flags->port_file, "write the bound port to this file");
  cmd->callback([flags] { run_serve(*flags); });
}

}  // namespace reader::cli
