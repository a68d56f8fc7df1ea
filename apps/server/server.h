// Server: `reader serve`, an OpenAI-compatible HTTP front end for the batched Engine.
//
// HTTP handler threads (cpp-httplib) parse requests (request.h), tokenize, build a
// drafter per request and submit it to the Engine; one engine thread steps the Engine and
// hands text back through a per-request channel, streamed as server-sent events or sent
// whole. Only the engine thread touches the KV cache and the drafters' shared state.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "reader/engine.h"
#include "reader/methods.h"
#include "request.h"

namespace httplib {
class Server;
class TaskQueue;
}  // namespace httplib

namespace reader::server {

struct ServerOptions {
  std::string host = "127.0.0.1";  // loopback unless asked otherwise
  int port = 8080;                 // 0: any free port (bind() returns it)
  std::string api_key;             // non-empty: /v1/* and /metrics need "Bearer <key>"
  std::string model_id;            // the name /v1/models lists and requests may give
  RequestLimits limits;            // max_tokens bounds and defaults
  int drain_seconds = 10;          // on stop(): how long in-flight requests may finish
};

// Builds each request's drafter (null: autoregressive). Called on handler threads.
using DrafterFactory = std::function<std::unique_ptr<Drafter>(const CompletionRequest&)>;

class Server {
 public:
  Server(Model& model, Engine& engine, DrafterFactory drafters, ServerOptions options);
  ~Server();
  // Binds the socket and starts the HTTP handler threads; returns the port. Throws
  // std::runtime_error when it cannot do either.
  int bind();
  // Serves until stop(); starts and joins the engine thread.
  void run();
  // Thread-safe: refuse new requests (503), let in-flight ones finish for drain_seconds,
  // cancel the rest, then make run() return.
  void stop();

 private:
  struct Channel;
  void engine_loop();
  void install_routes();
  bool authorized(const void* request) const;
  std::shared_ptr<Channel> start(const CompletionRequest& req, Tokens prompt);
  std::string metrics_text() const;
  void count_status(int status);
  size_t handler_threads() const;  // HTTP threads: enough for every running and waiting client

  Model& model_;
  Engine& engine_;
  DrafterFactory drafters_;
  ServerOptions options_;
  std::unique_ptr<httplib::Server> http_;
  std::unique_ptr<httplib::TaskQueue> handlers_;  // started by bind(), handed to listening
  std::thread engine_thread_;
  std::atomic<bool> draining_{false};     // stop() was called
  std::atomic<bool> engine_stop_{false};  // the engine thread should exit
  std::mutex wake_mutex_;
  std::condition_variable wake_;  // new work for the engine thread
  mutable std::mutex stats_mutex_;
  std::map<int, std::uint64_t> requests_by_status_;  // HTTP status -> count
  std::uint64_t completion_tokens_ = 0;              // sent to clients
  std::uint64_t prediction_accepted_ = 0;            // predicted tokens found in outputs
  double busy_seconds_ = 0;                          // engine time spent stepping
  std::atomic<int> in_flight_{0};                    // requests between submit and reply
  std::atomic<std::uint64_t> next_id_{1};            // for response ids
  std::mutex active_mutex_;
  std::map<RequestId, std::weak_ptr<Channel>> active_;  // requests stop() may cancel
};

// Tokens of `prediction` found, in order, in `output` (their longest common subsequence;
// 0 when the two are too long to compare cheaply): OpenAI's accepted_prediction_tokens.
int accepted_prediction_tokens(TokenSpan prediction, TokenSpan output);

}  // namespace reader::server
