// Batch SearchPath: one independent search per sequence, spread over a few worker threads
// (paper: "each sample in a batch searches independently, enabling per-sample multithreading").
#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>

#include "reader/search.h"

namespace reader {

std::vector<Tokens> search_path_batch(std::span<const Tokens> contexts, const SearchOptions& opts,
                                      std::span<const NextTokenSource* const> sources,
                                      int threads) {
  std::vector<Tokens> results(contexts.size());
  std::atomic<std::size_t> next{0};
  std::exception_ptr error;
  std::mutex error_mutex;
  // Workers pull sequence indices until none are left; each writes only its own results slot.
  const auto work = [&] {
    for (std::size_t i = next.fetch_add(1); i < contexts.size(); i = next.fetch_add(1)) {
      try {
        results[i] = search_path(contexts[i], opts, sources);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(error_mutex);
        if (!error) error = std::current_exception();
      }
    }
  };
  const std::size_t workers = std::min(static_cast<std::size_t>(std::max(threads, 1)),
                                       std::max<std::size_t>(contexts.size(), 1));
  const std::size_t helpers = workers - 1;
  {
    std::vector<std::jthread> pool;
    pool.reserve(helpers);
    for (std::size_t t = 0; t < helpers; ++t) pool.emplace_back(work);
    work();  // the caller is a worker too
  }          // jthreads join here
  if (error) std::rethrow_exception(error);
  return results;
}

}  // namespace reader
