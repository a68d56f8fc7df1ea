// Engine: runs many generations at once on one Model (continuous batching).
//
// Each running request owns one KV sequence id (its "slot"), its drafter state and its
// sampler. Every step() drafts for every running sequence, adds waiting prompts in
// chunks, and verifies all of it in ONE llama_decode; each sequence then accepts its
// longest verified path and commits it. Requests join between steps and leave when
// done. generate_autoregressive() and generate_speculative() are the B = 1 case.
//
// Exactness: a request's output is what it would be alone only when its cells sit as
// they would alone. Load the Model with kv_unified = false (one KV stream per sequence,
// model.h) for B > 1; then drafts must be chains, which the engine enforces.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "reader/drafter_interface.h"
#include "reader/generate.h"
#include "reader/model.h"
#include "reader/tree_policy.h"

namespace reader {

using RequestId = std::uint64_t;

struct EngineOptions {
  int max_sequences = 1;     // running at once (KV sequence ids 0..max_sequences-1)
  int max_waiting = 64;      // queued beyond the free sequences; submit() refuses more
  int prefill_chunk = 256;   // prompt tokens a joining request adds per step while others run
  bool reuse_prefix = true;  // keep a finished request's cells; a later prompt sharing their
                             // prefix skips recomputing it (prompt caching)
  // Verification cost (c(n) at a context length) for the batch-level draft policy; null:
  // every sequence keeps its drafter's own choice.
  const CostModel* cost = nullptr;
};

// One generation to run. Callbacks run on the thread that calls step().
struct Request {
  Tokens prompt;                           // non-empty, fits the context
  GenerationOptions options;               // max tokens, sampling, stops
  TextCallback on_text;                    // streamed text (optional)
  Drafter* drafter = nullptr;              // borrowed; null and no owned_drafter: autoregressive
  std::unique_ptr<Drafter> owned_drafter;  // or owned by the request
  // Called exactly once with the result (also after cancel() or an error).
  std::function<void(GenerationResult)> on_done;
};

// What the engine holds right now (for /metrics and the leak checks of the tests).
struct EngineSnapshot {
  int running = 0;                      // requests holding a sequence id
  int waiting = 0;                      // queued requests
  int kv_cells = 0;                     // cells held by all sequences (running and cached)
  int cached_sequences = 0;             // finished requests' cells kept for prefix reuse
  std::uint64_t steps = 0;              // decodes so far
  std::uint64_t generated = 0;          // tokens emitted so far
  std::uint64_t drafted = 0;            // draft tokens verified so far
  std::uint64_t accepted = 0;           // draft tokens accepted so far
  std::uint64_t prefix_reused = 0;      // prompt tokens not recomputed thanks to cached cells
  std::uint64_t moves = 0;              // running sequences moved to close gaps between ids
  double draft_seconds = 0;             // drafting (CPU search) time, all sequences
  double decode_seconds = 0;            // llama_decode time
  double generation_seconds = 0;        // wall time of steps without prompt tokens
  std::uint64_t generation_tokens = 0;  // tokens emitted by those steps
  // Of those, the steps with every slot decoding: a loaded server's steady state, without
  // the tail of a closed batch, where the last sequences run alone.
  double full_seconds = 0;
  std::uint64_t full_tokens = 0;
};

class Engine {
 public:
  // Clears the model's KV cache. Throws std::invalid_argument on bad options.
  Engine(Model& model, EngineOptions options);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Queues a request (thread-safe). Throws ModelError for a bad prompt and EngineFull
  // when max_waiting requests already wait.
  RequestId submit(Request request);
  // Ends a request early (thread-safe; unknown or finished ids are ignored): its on_done
  // gets what was generated so far with StopReason::kCancelled and its cells are freed.
  void cancel(RequestId id);
  // One batched step. Returns false when nothing runs or waits (nothing was done).
  bool step();
  // Runs step() until every submitted request has finished.
  void run_until_idle();

  EngineSnapshot snapshot() const;  // thread-safe
  const EngineOptions& options() const { return options_; }
  // Frees every cached (finished) sequence's cells; running ones are untouched.
  void drop_prefix_cache();

 private:
  struct Sequence;
  void admit();
  void finish(Sequence& seq, bool cancelled);
  void apply_cancellations();
  void close_gaps();
  void count_occupancy();  // running, waiting, KV cells into stats_ (inbox_mutex_ held)

  Model& model_;
  EngineOptions options_;
  mutable std::mutex inbox_mutex_;  // guards waiting_, cancels_, counters below
  std::deque<std::unique_ptr<Sequence>> waiting_;
  std::vector<RequestId> cancels_;
  RequestId next_id_ = 1;
  int occupied_ = 0;  // slots holding a request: submit() lets a burst fill the free ones
  std::vector<std::unique_ptr<Sequence>> slots_;  // by sequence id; null: free
  std::vector<Tokens> cached_;                    // per slot: tokens whose cells it keeps
  std::vector<BatchToken> batch_;                 // this step's decode
  EngineSnapshot stats_;                          // counters (running/waiting filled on read)
};

// submit() when the queue is full.
class EngineFull : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace reader
