#include "server.h"

#include <httplib.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <deque>
#include <random>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <vector>

#include "json_text.h"
#include "reader/drafter_interface.h"

namespace reader::server {
namespace {

using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

std::string finish_reason(StopReason r) {
  switch (r) {
    case StopReason::kMaxTokens:
    case StopReason::kContextFull:
      return "length";
    case StopReason::kEndOfGeneration:
    case StopReason::kStopString:
    case StopReason::kCancelled:
      break;
  }
  return "stop";
}

// A request the engine cancelled while its client still waits: only shutdown does that (a
// client that left gets nothing). Its headers (200) are sent, so the answer says it instead.
const ApiError kCutByShutdown(503, "server_error",
                              "the server shut down before this answer was complete");

// Output text may end inside a UTF-8 character (max_tokens cut it): see json_text.h.
std::string dump(const json& j) { return dump_json(j); }

void send_error(httplib::Response& res, const ApiError& e) {
  res.status = e.status();
  res.set_content(dump(error_json(e)), "application/json");
}

std::string sse(const json& j) { return "data: " + dump(j) + "\n\n"; }

ApiError unauthorized() {
  return ApiError(401, "invalid_request_error", "missing or wrong API key");
}

// cpp-httplib's ThreadPool, except that threads that cannot all start are an error at
// bind(): its own would leave the server listening with nobody to answer, and deaf to SIGTERM.
class HandlerPool final : public httplib::TaskQueue {
 public:
  explicit HandlerPool(size_t n) {
    try {
      threads_.reserve(n);
      for (size_t i = 0; i < n; ++i) threads_.emplace_back([this] { work(); });
    } catch (const std::system_error& e) {
      shutdown();
      throw std::runtime_error("cannot start " + std::to_string(n) + " HTTP threads (" + e.what() +
                               "): lower --parallel or --queue");
    }
  }
  HandlerPool(const HandlerPool&) = delete;
  HandlerPool& operator=(const HandlerPool&) = delete;
  ~HandlerPool() override { shutdown(); }

  void enqueue(std::function<void()> fn) override {
    {
      std::lock_guard lock(mutex_);
      jobs_.push_back(std::move(fn));
    }
    cond_.notify_one();
  }
  void shutdown() override {  // runs what is queued, then joins
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    cond_.notify_all();
    for (std::thread& t : threads_)
      if (t.joinable()) t.join();
  }

 private:
  void work() {
    for (;;) {
      std::function<void()> fn;
      {
        std::unique_lock lock(mutex_);
        cond_.wait(lock, [this] { return !jobs_.empty() || stopping_; });
        if (jobs_.empty()) return;  // stopping, nothing left
        fn = std::move(jobs_.front());
        jobs_.pop_front();
      }
      fn();
    }
  }

  std::vector<std::thread> threads_;
  std::deque<std::function<void()>> jobs_;  // accepted connections waiting for a thread
  bool stopping_ = false;                   // shutdown() was called
  std::mutex mutex_;
  std::condition_variable cond_;
};

}  // namespace

int accepted_prediction_tokens(TokenSpan prediction, TokenSpan output) {
  const size_t n = prediction.size(), m = output.size();
  if (n == 0 || m == 0 || n * m > (1u << 24)) return 0;
  std::vector<int> prev(m + 1, 0), cur(m + 1, 0);
  for (size_t i = 1; i <= n; ++i) {
    for (size_t j = 1; j <= m; ++j)
      cur[j] = prediction[i - 1] == output[j - 1] ? prev[j - 1] + 1 : std::max(prev[j], cur[j - 1]);
    std::swap(prev, cur);
  }
  return prev[m];
}

// Text and the result of one request, handed from the engine thread to its handler.
struct Server::Channel {
  std::mutex mutex;
  std::condition_variable ready;
  std::deque<std::string> pieces;  // streamed text not yet sent
  bool done = false;               // result is set
  GenerationResult result;         // the final result
  RequestId id = 0;                // the engine's id (for cancel)
  int prompt_tokens = 0;
  Tokens prediction;  // the request's predicted output, tokenized
};

Server::Server(Model& model, Engine& engine, DrafterFactory drafters, ServerOptions options)
    : model_(model),
      engine_(engine),
      drafters_(std::move(drafters)),
      options_(std::move(options)),
      http_(std::make_unique<httplib::Server>()) {
  // The handler threads bind() starts; listening takes them over (once).
  http_->new_task_queue = [this]() -> httplib::TaskQueue* {
    return handlers_ ? handlers_.release() : new HandlerPool(handler_threads());
  };
  http_->set_payload_max_length(8u << 20);
  // cpp-httplib's default adds SO_REUSEPORT, which lets a second server bind a port that is
  // in use and silently share its requests: keep only SO_REUSEADDR (fast restarts).
  http_->set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, reinterpret_cast<const char*>(&yes), sizeof yes);
  });
  install_routes();
}

Server::~Server() {
  engine_stop_ = true;
  wake_.notify_all();
  if (engine_thread_.joinable()) engine_thread_.join();
}

size_t Server::handler_threads() const {
  // Every streaming client holds a handler thread for its whole answer.
  return static_cast<size_t>(
      std::max(16, 2 * (engine_.options().max_sequences + engine_.options().max_waiting)));
}

int Server::bind() {
  const int port = options_.port == 0
                       ? http_->bind_to_any_port(options_.host)
                       : (http_->bind_to_port(options_.host, options_.port) ? options_.port : -1);
  if (port < 0)
    throw std::runtime_error("cannot listen on " + options_.host + ":" +
                             std::to_string(options_.port) + " (in use, or not an address here)");
  handlers_ = std::make_unique<HandlerPool>(handler_threads());
  return port;
}

void Server::run() {
  engine_thread_ = std::thread([this] { engine_loop(); });
  http_->listen_after_bind();
  engine_stop_ = true;
  wake_.notify_all();
  engine_thread_.join();
}

void Server::stop() {
  if (draining_.exchange(true)) return;
  // Let in-flight requests finish for a while, then cancel what is left.
  const auto deadline = Clock::now() + std::chrono::seconds(options_.drain_seconds);
  while (in_flight_ > 0 && Clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  if (in_flight_ > 0) {
    // Cancel everything still running: the engine finishes them as cancelled.
    {
      std::lock_guard lock(active_mutex_);
      for (const auto& [id, weak] : active_)
        if (weak.lock()) engine_.cancel(id);
    }
    wake_.notify_all();
    const auto hard = Clock::now() + std::chrono::seconds(5);
    while (in_flight_ > 0 && Clock::now() < hard)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  http_->stop();
}

void Server::engine_loop() {
  while (!engine_stop_) {
    bool worked = false;
    const auto t0 = Clock::now();
    try {
      worked = engine_.step();
    } catch (const std::exception& e) {
      // The engine has ended the sequences of the failed step; the server goes on.
      std::fprintf(stderr, "reader serve: step failed: %s\n", e.what());
      worked = true;
    }
    if (worked) {
      std::lock_guard lock(stats_mutex_);
      busy_seconds_ += std::chrono::duration<double>(Clock::now() - t0).count();
      continue;
    }
    std::unique_lock lock(wake_mutex_);
    wake_.wait_for(lock, std::chrono::milliseconds(50));
  }
  // Nothing may be left waiting on a channel.
  engine_.drop_prefix_cache();
}

void Server::count_status(int status) {
  std::lock_guard lock(stats_mutex_);
  requests_by_status_[status]++;
}

bool Server::authorized(const void* request) const {
  if (options_.api_key.empty()) return true;
  const auto& req = *static_cast<const httplib::Request*>(request);
  return req.get_header_value("Authorization") == "Bearer " + options_.api_key;
}

std::shared_ptr<Server::Channel> Server::start(const CompletionRequest& req, Tokens prompt) {
  auto channel = std::make_shared<Channel>();
  channel->prompt_tokens = static_cast<int>(prompt.size());
  Request r;
  r.prompt = std::move(prompt);
  const int room = model_.n_ctx() - static_cast<int>(r.prompt.size());
  r.options.max_tokens = std::min(req.max_tokens, room);
  r.options.sampling.temperature = req.temperature;
  r.options.sampling.top_p = req.top_p;
  r.options.sampling.seed = req.seed ? *req.seed : std::random_device{}();
  r.options.stop = req.stop;
  r.owned_drafter = drafters_(req);
  if (req.has_prediction) {
    channel->prediction = model_.tokenize(req.prediction, false, false);
    if (r.owned_drafter) r.owned_drafter->set_reference(channel->prediction);
  }
  std::weak_ptr<Channel> weak = channel;
  if (req.stream)
    r.on_text = [weak](std::string_view text) {
      if (auto c = weak.lock()) {
        std::lock_guard lock(c->mutex);
        c->pieces.emplace_back(text);
        c->ready.notify_all();
      }
    };
  r.on_done = [this, weak](GenerationResult result) {
    {
      std::lock_guard lock(stats_mutex_);
      completion_tokens_ += result.tokens.size();
    }
    if (auto c = weak.lock()) {
      std::lock_guard lock(c->mutex);
      c->result = std::move(result);
      c->done = true;
      c->ready.notify_all();
    }
  };
  channel->id = engine_.submit(std::move(r));  // throws EngineFull, ModelError
  {
    std::lock_guard lock(active_mutex_);
    std::erase_if(active_, [](const auto& kv) { return kv.second.expired(); });
    active_[channel->id] = channel;
  }
  wake_.notify_all();
  return channel;
}

void Server::install_routes() {
  httplib::Server& http = *http_;

  http.Get("/health", [this](const httplib::Request&, httplib::Response& res) {
    res.status = draining_ ? 503 : 200;
    res.set_content(dump(json{{"status", draining_ ? "draining" : "ok"}}), "application/json");
  });

  http.Get("/v1/models", [this](const httplib::Request& req, httplib::Response& res) {
    if (!authorized(&req)) return send_error(res, unauthorized());
    json model = {
        {"id", options_.model_id}, {"object", "model"}, {"created", 0}, {"owned_by", "reader"}};
    res.set_content(dump(json{{"object", "list"}, {"data", json::array({model})}}),
                    "application/json");
  });

  http.Get("/metrics", [this](const httplib::Request& req, httplib::Response& res) {
    if (!authorized(&req)) return send_error(res, unauthorized());
    res.set_content(metrics_text(), "text/plain; version=0.0.4");
  });

  // What the engine holds: the leak checks of the load test read it.
  http.Get("/debug/engine", [this](const httplib::Request& req, httplib::Response& res) {
    if (!authorized(&req)) return send_error(res, unauthorized());
    const EngineSnapshot s = engine_.snapshot();
    res.set_content(dump(json{{"running", s.running},
                              {"waiting", s.waiting},
                              {"kv_cells", s.kv_cells},
                              {"cached_sequences", s.cached_sequences},
                              {"in_flight", in_flight_.load()}}),
                    "application/json");
  });

  const auto completion = [this](Endpoint endpoint) {
    return [this, endpoint](const httplib::Request& req, httplib::Response& res) {
      try {
        if (draining_) throw ApiError(503, "server_error", "the server is shutting down");
        if (!authorized(&req)) throw unauthorized();
        const CompletionRequest cr = parse_request(req.body, endpoint, options_.limits);
        if (!cr.model.empty() && cr.model != options_.model_id)
          throw ApiError(404, "invalid_request_error",
                         "model '" + cr.model + "' does not exist (this server has '" +
                             options_.model_id + "')",
                         "model");
        // Every message renders to at least one token, so more messages than the context holds
        // cannot fit; saying so before rendering spares llama.cpp's special-token split, whose
        // time grows with the square of the message count (100,000 messages: 86 s).
        if (endpoint == Endpoint::kChat && std::ssize(cr.messages) >= model_.n_ctx())
          throw ApiError(400, "invalid_request_error",
                         std::to_string(cr.messages.size()) + " messages cannot fit a context of " +
                             std::to_string(model_.n_ctx()) + " tokens",
                         "messages");
        Tokens prompt;
        try {
          prompt = endpoint == Endpoint::kChat
                       ? model_.tokenize(model_.apply_chat_template(cr.messages), true, true)
                       : model_.tokenize(cr.prompt, true, true);
          check_prompt(model_, prompt);  // the engine's own rule, said before queueing
        } catch (const ModelError& e) {
          throw ApiError(400, "invalid_request_error", e.what(),
                         endpoint == Endpoint::kChat ? "messages" : "prompt");
        }
        std::shared_ptr<Channel> channel;
        try {
          channel = start(cr, std::move(prompt));
        } catch (const EngineFull& e) {
          throw ApiError(429, "rate_limit_error", e.what());
        } catch (const ModelError& e) {
          throw ApiError(400, "invalid_request_error", e.what());
        }
        ++in_flight_;
        const std::string id =
            (endpoint == Endpoint::kChat ? "chatcmpl-" : "cmpl-") + std::to_string(next_id_++);
        const auto created = static_cast<std::int64_t>(std::time(nullptr));
        const bool chat = endpoint == Endpoint::kChat;
        // Once per request, when it is done: also counted for /metrics.
        const auto usage = [this, channel](const GenerationResult& r) {
          json u = {{"prompt_tokens", channel->prompt_tokens},
                    {"completion_tokens", r.tokens.size()},
                    {"total_tokens", channel->prompt_tokens + static_cast<int>(r.tokens.size())}};
          const int accepted = accepted_prediction_tokens(channel->prediction, r.tokens);
          {
            std::lock_guard slock(stats_mutex_);
            prediction_accepted_ += static_cast<std::uint64_t>(accepted);
          }
          u["completion_tokens_details"] = {
              {"accepted_prediction_tokens", accepted},
              {"rejected_prediction_tokens",
               static_cast<int>(channel->prediction.size()) - accepted}};
          return u;
        };
        // Done, or the client went away: a request still running is cancelled (its cells are
        // freed by the engine at the next step). Both replies end here.
        const auto release = [this, channel](bool success) {
          bool done;
          {
            std::lock_guard lock(channel->mutex);
            done = channel->done;
          }
          if (!done) {
            engine_.cancel(channel->id);
            wake_.notify_all();
            std::unique_lock lock(channel->mutex);
            channel->ready.wait_for(lock, std::chrono::seconds(30), [&] { return channel->done; });
          }
          --in_flight_;
          count_status(success && done ? 200 : 499);
        };
        if (!cr.stream) {
          // One JSON body, sent chunked: after the first second of generating, a space every
          // 200 ms (JSON allows leading whitespace) finds out whether the client is still
          // there. cpp-httplib 0.11 tells a handler of no other way, and a client that left
          // would otherwise hold its sequence until max_tokens.
          auto sent = std::make_shared<bool>(false);
          auto first_wait = std::make_shared<bool>(true);
          res.set_chunked_content_provider(
              "application/json",
              [=, this](size_t, httplib::DataSink& sink) -> bool {
                try {
                  if (*sent) return false;
                  std::unique_lock lock(channel->mutex);
                  const auto wait = std::chrono::milliseconds(*first_wait ? 1000 : 200);
                  *first_wait = false;
                  if (!channel->ready.wait_for(lock, wait, [&] { return channel->done; })) {
                    lock.unlock();
                    return sink.write(" ", 1);
                  }
                  const GenerationResult& r = channel->result;
                  const json u = usage(r);  // counted for /metrics even when not sent
                  std::string body;
                  if (r.stop_reason == StopReason::kCancelled) {
                    body = dump(error_json(kCutByShutdown));
                  } else {
                    json choice = {{"index", 0}, {"finish_reason", finish_reason(r.stop_reason)}};
                    if (chat)
                      choice["message"] = {{"role", "assistant"}, {"content", r.text}};
                    else
                      choice["text"] = r.text, choice["logprobs"] = nullptr;
                    body = dump(json{{"id", id},
                                     {"object", chat ? "chat.completion" : "text_completion"},
                                     {"created", created},
                                     {"model", options_.model_id},
                                     {"choices", json::array({choice})},
                                     {"usage", u}});
                  }
                  lock.unlock();
                  *sent = true;
                  if (!sink.write(body.data(), body.size())) return false;
                  sink.done();
                  return true;
                } catch (const std::exception& e) {
                  std::fprintf(stderr, "reader serve: reply failed: %s\n", e.what());
                  return false;
                }
              },
              release);
          return;
        }
        // Streamed: one event per piece of text, then the finish reason, usage, [DONE].
        res.set_header("Cache-Control", "no-cache");
        const bool include_usage = cr.include_usage;
        auto sent_role = std::make_shared<bool>(false);
        auto finished = std::make_shared<bool>(false);
        const auto chunk = [=, this](json delta, json reason) {
          json choice = {{"index", 0}, {"finish_reason", reason}};
          if (chat)
            choice["delta"] = std::move(delta);
          else
            choice["text"] = delta.value("content", ""), choice["logprobs"] = nullptr;
          return json{{"id", id},
                      {"object", chat ? "chat.completion.chunk" : "text_completion"},
                      {"created", created},
                      {"model", options_.model_id},
                      {"choices", json::array({choice})}};
        };
        res.set_chunked_content_provider(
            "text/event-stream",
            [=](size_t, httplib::DataSink& sink) -> bool {
              try {
                if (*finished) return false;
                if (chat && !*sent_role) {
                  *sent_role = true;
                  const std::string ev =
                      sse(chunk({{"role", "assistant"}, {"content", ""}}, nullptr));
                  return sink.write(ev.data(), ev.size());
                }
                std::unique_lock lock(channel->mutex);
                channel->ready.wait_for(lock, std::chrono::milliseconds(200),
                                        [&] { return channel->done || !channel->pieces.empty(); });
                std::string out;
                while (!channel->pieces.empty()) {
                  out += sse(chunk({{"content", channel->pieces.front()}}, nullptr));
                  channel->pieces.pop_front();
                }
                if (channel->done && channel->result.stop_reason == StopReason::kCancelled) {
                  usage(channel->result);  // counted for /metrics
                  out += sse(error_json(kCutByShutdown)) + "data: [DONE]\n\n";
                  *finished = true;
                } else if (channel->done) {
                  const GenerationResult& r = channel->result;
                  out += sse(chunk(json::object(), finish_reason(r.stop_reason)));
                  json u = chunk(json::object(), nullptr);
                  u["usage"] = usage(r);  // counted for /metrics even when not sent
                  if (include_usage) {
                    u["choices"] = json::array();
                    out += sse(u);
                  }
                  out += "data: [DONE]\n\n";
                  *finished = true;
                }
                lock.unlock();
                if (out.empty()) return sink.is_writable();  // heartbeat: is the client there?
                if (!sink.write(out.data(), out.size())) return false;
                if (*finished) sink.done();
                return true;
              } catch (const std::exception& e) {
                // Nothing may escape into cpp-httplib's thread: end this stream only.
                std::fprintf(stderr, "reader serve: stream failed: %s\n", e.what());
                return false;
              }
            },
            release);
      } catch (const ApiError& e) {
        send_error(res, e);
        count_status(e.status());
      } catch (const std::exception& e) {
        send_error(res, ApiError(500, "server_error", e.what()));
        count_status(500);
      }
    };
  };
  http.Post("/v1/chat/completions", completion(Endpoint::kChat));
  http.Post("/v1/completions", completion(Endpoint::kCompletion));

  http.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;  // a handler already wrote an error
    // cpp-httplib caps form-encoded bodies (curl -d's default type) at 8 KiB itself.
    const bool form = req.get_header_value("Content-Type") == "application/x-www-form-urlencoded";
    const std::string msg = res.status == 404 ? "no route " + req.method + " " + req.path
                            : res.status == 413 && form
                                ? "form-encoded body over 8 KiB: send it as application/json"
                            : res.status == 413 ? "request body too large (8 MiB at most)"
                                                : "bad request";
    send_error(res, ApiError(res.status, "invalid_request_error", msg));
  });
}

std::string Server::metrics_text() const {
  const EngineSnapshot s = engine_.snapshot();
  std::ostringstream o;
  std::lock_guard lock(stats_mutex_);
  // One Prometheus metric: its help and type lines, then its value.
  const auto metric = [&o](const char* name, const char* type, const char* help,
                           const auto& value) {
    o << "# HELP " << name << " " << help << "\n# TYPE " << name << " " << type << "\n"
      << name << " " << value << "\n";
  };
  o << "# HELP reader_requests_total Completion requests by HTTP status (499: client left).\n"
       "# TYPE reader_requests_total counter\n";
  for (const auto& [status, n] : requests_by_status_)
    o << "reader_requests_total{status=\"" << status << "\"} " << n << "\n";
  metric("reader_generated_tokens_total", "counter", "Tokens generated.", s.generated);
  metric("reader_tokens_per_second", "gauge", "Generated tokens per second of engine busy time.",
         busy_seconds_ > 0 ? static_cast<double>(s.generated) / busy_seconds_ : 0.0);
  metric("reader_steps_total", "counter", "Batched forward passes.", s.steps);
  metric("reader_drafted_tokens_total", "counter", "Draft tokens verified.", s.drafted);
  metric("reader_accepted_tokens_total", "counter", "Draft tokens accepted.", s.accepted);
  metric("reader_accepted_per_step", "gauge", "Accepted draft tokens per forward pass.",
         s.steps ? static_cast<double>(s.accepted) / static_cast<double>(s.steps) : 0.0);
  metric("reader_prefix_reused_tokens_total", "counter",
         "Prompt tokens served from cached KV cells.", s.prefix_reused);
  metric("reader_sequence_moves_total", "counter",
         "Running requests moved to close gaps between sequence ids.", s.moves);
  metric("reader_prediction_accepted_tokens_total", "counter",
         "Predicted-output tokens found in outputs.", prediction_accepted_);
  metric("reader_queue_depth", "gauge", "Requests waiting for a sequence.", s.waiting);
  metric("reader_running_sequences", "gauge", "Requests generating now.", s.running);
  metric("reader_busy_seconds_total", "counter", "Engine time spent stepping (not idle).",
         busy_seconds_);
  metric("reader_decode_seconds_total", "counter", "Engine time inside llama_decode.",
         s.decode_seconds);
  metric("reader_draft_seconds_total", "counter", "Engine time spent drafting (CPU search).",
         s.draft_seconds);
  metric("reader_cached_sequences", "gauge", "Idle sequences holding a finished prompt for reuse.",
         s.cached_sequences);
  metric("reader_kv_cells_used", "gauge", "KV-cache cells held (running and cached prompts).",
         s.kv_cells);
  return o.str();
}

}  // namespace reader::server
