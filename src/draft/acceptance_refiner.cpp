// The refiner's features, its trees' verdict and the collection of judged candidates
// (acceptance_refiner.h; the fit is refiner_boosting.cpp). Touches nothing but its arguments.
#include "reader/acceptance_refiner.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>
#include <string>

#include "reader/generate.h"
#include "util/logistic.h"

namespace reader {
namespace {

// The trie node of `gram` read from the root, or -1 where the text never held it.
std::int32_t find_gram(const ShortTermTrie& text, TokenSpan gram) {
  std::int32_t node = ShortTermTrie::kRoot;
  for (Token t : gram) {
    node = text.child(node, t);
    if (node < 0) return -1;
  }
  return node;
}

constexpr size_t kLongestGram = 4;
constexpr std::array<DraftSource, 4> kSources = {DraftSource::kSpeculator, DraftSource::kWidening,
                                                 DraftSource::kDeepening, DraftSource::kCopy};

}  // namespace

// Feature by feature (x[j]):
//   0      logit of q, the estimate as weighed        1   its square / 10
//   2      log of alpha (q's product along the path)  3-4 depth, log depth
//   5      the parent's children                      6   siblings with a higher q
//   7      sum of the siblings' q (its own included)  8   the node's own children
//   9-12   drafted by speculator, widening, deepening, copy (1 or 0)
//   13-28  for the last k = 1..4 tokens before it: log(1 + times the text continued them),
//          the share continued with this token (-1: never continued), whether this token is
//          the most frequent continuation, log(1 + times continued with it)
//   29     the text's mean tokens committed per step  30  log(1 + the token's count in the text)
//   31-34  logit of q times each source flag           35  logit of q times the pace (29)
//   36     logit of q times log depth
//   37-42  the token's classes (token_class, 1 or 0)  43-48  its parent's (the root's: the
//          context's last token)
std::uint8_t token_class(std::string_view bytes) {
  const auto alpha = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; };
  const auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  const auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  std::string_view core = bytes;  // without surrounding white space
  while (!core.empty() && space(core.front())) core.remove_prefix(1);
  while (!core.empty() && space(core.back())) core.remove_suffix(1);
  std::string_view end = bytes;  // without trailing spaces
  while (!end.empty() && end.back() == ' ') end.remove_suffix(1);
  std::uint8_t c = 0;
  if (bytes.size() > 1 && bytes[0] == ' ' && alpha(bytes[1])) c |= 1u << 0;  // a word's start
  if (!bytes.empty() && alpha(bytes[0])) c |= 1u << 1;                       // its continuation
  if (!core.empty() && std::none_of(core.begin(), core.end(), alnum)) c |= 1u << 2;  // punctuation
  if (!end.empty() && std::string_view(".!?:").find(end.back()) != std::string_view::npos)
    c |= 1u << 3;                                                // an end
  if (bytes.find('\n') != std::string_view::npos) c |= 1u << 4;  // a newline
  if (std::any_of(bytes.begin(), bytes.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
    c |= 1u << 5;  // a digit
  return c;
}

std::vector<RefinerFeatures> refiner_features(const DraftTree& tree, const std::vector<double>& q,
                                              TokenSpan context, const ShortTermTrie& text,
                                              const TextPace& pace, const TokenClassOf& class_of) {
  const int n = tree.size();
  std::vector<RefinerFeatures> out(static_cast<size_t>(n), RefinerFeatures{});
  std::vector<double> alpha(static_cast<size_t>(n), 1.0), sibling_q(static_cast<size_t>(n), 0.0);
  std::vector<int> children(static_cast<size_t>(n), 0);
  for (int i = 1; i < n; ++i) {
    const auto p = static_cast<size_t>(tree.parent(i));
    alpha[static_cast<size_t>(i)] = alpha[p] * q[static_cast<size_t>(i)];
    ++children[p];
    sibling_q[p] += q[static_cast<size_t>(i)];
  }
  Tokens before;  // the last tokens before a node: its path's, then the context's
  for (int i = 1; i < n; ++i) {
    const auto u = static_cast<size_t>(i);
    const int p = tree.parent(i);
    const double lq = logit(q[u]);
    int rank = 0;
    for (int s = tree.first_child(p); s >= 0; s = tree.next_sibling(s))
      rank += q[static_cast<size_t>(s)] > q[u];
    RefinerFeatures& x = out[u];
    const double depth = tree.depth(i);
    x[0] = static_cast<float>(lq);
    x[1] = static_cast<float>(lq * lq / 10);
    x[2] = static_cast<float>(std::log(std::max(alpha[u], 1e-9)));
    x[3] = static_cast<float>(depth);
    x[4] = static_cast<float>(std::log(depth));
    x[5] = static_cast<float>(children[static_cast<size_t>(p)]);
    x[6] = static_cast<float>(rank);
    x[7] = static_cast<float>(sibling_q[static_cast<size_t>(p)]);
    x[8] = static_cast<float>(children[u]);
    for (size_t s = 0; s < kSources.size(); ++s) {
      x[9 + s] = tree.source(i) == kSources[s] ? 1.f : 0.f;
      x[31 + s] = static_cast<float>(lq) * x[9 + s];
    }
    before.clear();
    for (int a = p; a > 0 && before.size() < kLongestGram; a = tree.parent(a))
      before.push_back(tree.token(a));
    for (auto c = context.rbegin(); c != context.rend() && before.size() < kLongestGram; ++c)
      before.push_back(*c);
    std::reverse(before.begin(), before.end());
    const Token token = tree.token(i);
    for (size_t k = 1; k <= kLongestGram; ++k) {
      double total = 0, hits = 0;
      bool top = false;
      if (before.size() >= k) {
        const std::int32_t node = find_gram(text, TokenSpan(before).last(k));
        if (node >= 0) {
          const auto next = text.children(node);
          for (const TrieEdge& e : next) total += e.count;
          hits = text.edge(node, token).count;
          top = !next.empty() && next.front().token == token;
        }
      }
      float* g = &x[13 + 4 * (k - 1)];
      g[0] = static_cast<float>(std::log1p(total));
      g[1] = total > 0 ? static_cast<float>(hits / total) : -1.f;
      g[2] = top ? 1.f : 0.f;
      g[3] = static_cast<float>(std::log1p(hits));
    }
    x[29] = static_cast<float>(pace.mean_committed);
    x[30] = static_cast<float>(std::log1p(text.edge(ShortTermTrie::kRoot, token).count));
    x[35] = static_cast<float>(lq * pace.mean_committed);
    x[36] = static_cast<float>(lq * x[4]);
    if (class_of) {
      // The root's token is the context's last one.
      const std::uint8_t mine = class_of(token), parents = class_of(tree.token(p));
      for (int k = 0; k < kTokenClasses; ++k) {
        x[static_cast<size_t>(37 + k)] = static_cast<float>((mine >> k) & 1u);
        x[static_cast<size_t>(37 + kTokenClasses + k)] = static_cast<float>((parents >> k) & 1u);
      }
    }
  }
  return out;
}

double AcceptanceRefiner::refine(const RefinerFeatures& x) const {
  double z = base;
  for (const RefinerTree& t : trees) z += t.leaf[static_cast<size_t>(t.leaf_of(x))];
  return sigmoid(z);
}

void AcceptanceRefiner::validate() const {
  const auto finite = [](float v) { return std::isfinite(v); };
  if (!std::isfinite(base)) throw std::invalid_argument("refiner: its base margin is not finite");
  for (const RefinerTree& t : trees) {
    for (std::int32_t f : t.feature)
      if (f < -1 || f >= kRefinerFeatures)
        throw std::invalid_argument("refiner: a tree splits on feature " + std::to_string(f) +
                                    ", not one of " + std::to_string(kRefinerFeatures));
    if (!std::all_of(t.threshold.begin(), t.threshold.end(), finite) ||
        !std::all_of(t.leaf.begin(), t.leaf.end(), finite))
      throw std::invalid_argument("refiner: a tree's thresholds and leaves must be finite");
  }
}

void RefinerCollector::step(int root_position, const DraftTree& tree,
                            std::vector<RefinerFeatures> features) {
  Step s;
  s.root_position = root_position;
  s.parents = tree.parents();
  s.tokens = tree.tokens();
  s.features = std::move(features);
  pending_.push_back(std::move(s));
}

void RefinerCollector::finish(TokenSpan prompt, TokenSpan output) {
  const auto length = static_cast<std::ptrdiff_t>(prompt.size() + output.size());
  const auto at = [&](std::ptrdiff_t position) {
    return position < static_cast<std::ptrdiff_t>(prompt.size())
               ? prompt[static_cast<size_t>(position)]
               : output[static_cast<size_t>(position) - prompt.size()];
  };
  for (const Step& s : pending_) {
    const size_t n = s.tokens.size();
    std::vector<char> matched(n, 0);
    std::vector<std::ptrdiff_t> position(n, s.root_position);
    matched[0] = 1;
    for (size_t i = 1; i < n; ++i) {
      const auto p = static_cast<size_t>(s.parents[i]);
      position[i] = position[p] + 1;
      if (!matched[p]) continue;  // never judged: its parent was not accepted
      matched[i] = position[i] < length && at(position[i]) == s.tokens[i];
      samples_.push_back({s.features[i], matched[i] != 0});
    }
  }
  pending_.clear();
}

}  // namespace reader
