#include "reader/output_memory.h"

#include <algorithm>

namespace reader {

OutputMemory::OutputMemory(std::size_t max_tokens, int max_depth)
    : max_tokens_(std::max<std::size_t>(max_tokens, 1)),
      // Room for every window of max_tokens tokens, so the trie never evicts by itself.
      trie_(TrieOptions{
          max_depth,
          std::min<std::size_t>(1u << 30, (max_tokens_ + 2) * static_cast<std::size_t>(max_depth) +
                                              4u * static_cast<std::size_t>(max_depth + 1))}) {}

void OutputMemory::add(TokenSpan response) {
  if (response.empty()) return;
  // A response longer than the whole room keeps its end.
  if (response.size() > max_tokens_) response = response.last(max_tokens_);
  if (tokens_ + response.size() > max_tokens_) {
    const std::size_t target = max_tokens_ - max_tokens_ / 4;
    while (!kept_.empty() && tokens_ + response.size() > target) {
      tokens_ -= kept_.front().size();
      kept_.pop_front();
      ++evicted_;
    }
    trie_.clear();
    for (const Tokens& r : kept_) trie_.insert(r);
  }
  kept_.emplace_back(response.begin(), response.end());
  tokens_ += response.size();
  trie_.insert(response);
}

}  // namespace reader
