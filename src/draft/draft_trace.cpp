// DraftTrace: one JSON object per line (draft_trace.h).
#include "reader/draft_trace.h"

#include <nlohmann/json.hpp>
#include <numeric>

#include "reader/tree_policy.h"

namespace reader {

using nlohmann::json;

void DraftTrace::run(std::string_view set, std::string_view id, std::string_view method) {
  out_ << json{{"run", {{"set", set}, {"id", id}, {"method", method}}}}.dump() << '\n';
}

void DraftTrace::prompt(TokenSpan prompt) {
  out_ << json{{"prompt", std::vector<Token>(prompt.begin(), prompt.end())}}.dump() << '\n';
}

void DraftTrace::step(size_t context, const DraftTree& candidates, const std::vector<double>& q,
                      const CostCurve& cost, const std::vector<int>& keep) {
  json parents = json::array(), tokens = json::array(), sources = json::array(),
       rates = json::array(), prices = json::array();
  for (int i = 1; i < candidates.size(); ++i) {
    parents.push_back(candidates.parent(i));
    tokens.push_back(candidates.token(i));
    sources.push_back(static_cast<int>(candidates.source(i)));
    rates.push_back(q.empty() ? -1.0 : q[static_cast<size_t>(i)]);
  }
  for (int n = 1; n <= candidates.size(); ++n) prices.push_back(cost(n));
  std::vector<int> verified = keep;
  if (verified.empty()) {
    verified.resize(static_cast<size_t>(candidates.size()));
    std::iota(verified.begin(), verified.end(), 0);
  }
  out_ << json{{"step",
                {{"context", context},
                 {"parents", parents},
                 {"tokens", tokens},
                 {"sources", sources},
                 {"q", rates},
                 {"cost", prices},
                 {"keep", verified}}}}
              .dump()
       << '\n';
}

void DraftTrace::commit(TokenSpan committed) {
  out_ << json{{"commit", std::vector<Token>(committed.begin(), committed.end())}}.dump() << '\n';
}

}  // namespace reader
