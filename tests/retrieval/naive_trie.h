// Reference model of ShortTermTrie for the property tests: a map from every window (<= D
// tokens) to its count, with lookups and extractions written the obvious, slow way.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <queue>
#include <vector>

#include "reader/draft_subtree.h"
#include "reader/tokens.h"
#include "reader/trie.h"

namespace reader::testing {

// Randomized tests run kScale times more rounds in optimized builds; sanitizer and debug builds
// keep the minimum so the whole unit binary stays within seconds.
#if defined(NDEBUG) && !defined(__SANITIZE_ADDRESS__)
inline constexpr int kScale = 3;
#else
inline constexpr int kScale = 1;
#endif

class NaiveTrie {
 public:
  explicit NaiveTrie(int max_depth) : depth_(max_depth) {}

  void insert(TokenSpan seq) {
    for (std::size_t s = 0; s < seq.size(); ++s) {
      ++root_count_;
      for (std::size_t k = 1; k <= static_cast<std::size_t>(depth_) && s + k <= seq.size(); ++k) {
        ++counts_[Tokens(seq.begin() + static_cast<std::ptrdiff_t>(s),
                         seq.begin() + static_cast<std::ptrdiff_t>(s + k))];
      }
    }
  }

  const std::map<Tokens, std::uint64_t>& counts() const { return counts_; }
  std::uint64_t root_count() const { return root_count_; }

  std::uint64_t count(const Tokens& path) const {
    if (path.empty()) return root_count_;
    const auto it = counts_.find(path);
    return it == counts_.end() ? 0 : it->second;
  }

  // Children of path, most frequent first, ties by lower token.
  std::vector<TokenCount> children(const Tokens& path) const {
    std::vector<TokenCount> out;
    // Windows extending path are contiguous in lexicographic order, starting right at path.
    for (auto it = counts_.lower_bound(path); it != counts_.end(); ++it) {
      const Tokens& window = it->first;
      if (window.size() < path.size() || !std::equal(path.begin(), path.end(), window.begin())) {
        break;
      }
      if (window.size() == path.size() + 1) out.push_back(TokenCount{window.back(), it->second});
    }
    std::sort(out.begin(), out.end(), [](const TokenCount& a, const TokenCount& b) {
      return a.count > b.count || (a.count == b.count && a.token < b.token);
    });
    return out;
  }

  // Longest suffix (<= min(L, D-1)) with at least one child; empty path = no match.
  Tokens match(TokenSpan context, int max_suffix_len) const {
    const int longest = std::min({max_suffix_len, depth_ - 1, static_cast<int>(context.size())});
    for (int len = longest; len > 0; --len) {
      const TokenSpan s = context.last(static_cast<std::size_t>(len));
      Tokens path(s.begin(), s.end());
      if (count(path) > 0 && !children(path).empty()) return path;
    }
    return {};
  }

  std::vector<TokenCount> next_tokens(TokenSpan context, int max_suffix_len) const {
    const Tokens m = match(context, max_suffix_len);
    return m.empty() ? std::vector<TokenCount>{} : children(m);
  }

  Tokens best_path(TokenSpan context, int max_suffix_len, int depth) const {
    Tokens path;
    if (depth <= 0) return path;
    Tokens node = match(context, max_suffix_len);
    if (node.empty()) return path;
    while (path.size() < static_cast<std::size_t>(depth)) {
      std::vector<TokenCount> kids = children(node);
      if (kids.empty()) {
        Tokens all(context.begin(), context.end());
        all.insert(all.end(), path.begin(), path.end());
        node = match(all, max_suffix_len);
        if (node.empty()) break;
        kids = children(node);
      }
      path.push_back(kids.front().token);
      node.push_back(kids.front().token);
    }
    return path;
  }

  DraftSubtree extract_dfs(TokenSpan context, int max_suffix_len, int max_depth, int budget) const {
    DraftSubtree out;
    if (budget <= 0 || max_depth <= 0) return out;
    const Tokens m = match(context, max_suffix_len);
    if (m.empty()) return out;
    dfs(m, -1, 0, 1.0, max_depth, static_cast<std::size_t>(budget), out);
    return out;
  }

  // Eager best-first: every child is queued when its parent is taken.
  DraftSubtree extract_best_first(TokenSpan context, int max_suffix_len, int max_depth,
                                  int budget) const {
    DraftSubtree out;
    if (budget <= 0 || max_depth <= 0) return out;
    const Tokens m = match(context, max_suffix_len);
    if (m.empty()) return out;
    struct Cand {
      double prob;
      std::uint64_t seq;
      Tokens path;
      std::int32_t parent;
      int depth;
    };
    auto worse = [](const Cand& a, const Cand& b) {
      return a.prob < b.prob || (a.prob == b.prob && a.seq > b.seq);
    };
    std::priority_queue<Cand, std::vector<Cand>, decltype(worse)> heap(worse);
    std::uint64_t seq = 0;
    auto push_children = [&](const Tokens& path, std::int32_t parent, int depth, double prob) {
      const std::uint64_t parent_count = count(path);
      for (const TokenCount& c : children(path)) {
        Tokens p = path;
        p.push_back(c.token);
        heap.push(Cand{prob * (static_cast<double>(c.count) / static_cast<double>(parent_count)),
                       seq++, p, parent, depth});
      }
    };
    push_children(m, -1, 1, 1.0);
    while (!heap.empty() && out.size() < static_cast<std::size_t>(budget)) {
      const Cand c = heap.top();
      heap.pop();
      out.push(c.path.back(), c.parent, count(c.path), c.prob);
      if (c.depth < max_depth) {
        push_children(c.path, static_cast<std::int32_t>(out.size() - 1), c.depth + 1, c.prob);
      }
    }
    return out;
  }

 private:
  void dfs(const Tokens& path, std::int32_t index, int depth, double prob, int max_depth,
           std::size_t budget, DraftSubtree& out) const {
    if (depth >= max_depth) return;
    const std::uint64_t parent_count = count(path);
    for (const TokenCount& c : children(path)) {
      if (out.size() >= budget) return;
      const double p = prob * (static_cast<double>(c.count) / static_cast<double>(parent_count));
      out.push(c.token, index, c.count, p);
      Tokens next = path;
      next.push_back(c.token);
      dfs(next, static_cast<std::int32_t>(out.size() - 1), depth + 1, p, max_depth, budget, out);
    }
  }

  int depth_;                               // D
  std::map<Tokens, std::uint64_t> counts_;  // window -> count
  std::uint64_t root_count_ = 0;            // windows inserted
};

// Every window of the trie with its count, found by walking it from the root.
inline std::map<Tokens, std::uint64_t> dump(const ShortTermTrie& trie) {
  std::map<Tokens, std::uint64_t> out;
  std::vector<std::pair<std::int32_t, Tokens>> stack{{ShortTermTrie::kRoot, {}}};
  while (!stack.empty()) {
    auto [node, path] = stack.back();
    stack.pop_back();
    for (const TrieEdge& e : trie.children(node)) {
      Tokens p = path;
      p.push_back(e.token);
      out[p] = e.count;
      stack.emplace_back(e.child, std::move(p));
    }
  }
  return out;
}

// Child lists (in trie order) of every non-root node, keyed by the node's window.
inline std::map<Tokens, std::vector<TokenCount>> child_lists(const ShortTermTrie& trie) {
  std::map<Tokens, std::vector<TokenCount>> out;
  std::vector<std::pair<std::int32_t, Tokens>> stack{{ShortTermTrie::kRoot, {}}};
  while (!stack.empty()) {
    auto [node, path] = stack.back();
    stack.pop_back();
    std::vector<TokenCount> kids;
    for (const TrieEdge& e : trie.children(node)) {
      kids.push_back(TokenCount{e.token, e.count});
      Tokens p = path;
      p.push_back(e.token);
      stack.emplace_back(e.child, std::move(p));
    }
    if (!path.empty() && !kids.empty()) out[path] = std::move(kids);
  }
  return out;
}

}  // namespace reader::testing
