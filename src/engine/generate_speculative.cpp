// The READER loop (paper, Algorithm 1), read top to bottom:
//   prefill -> first token -> repeat { draft tree -> verify in one decode -> accept ->
//   commit KV + trie } until a stop rule fires in the OutputStream.
#include <algorithm>
#include <chrono>

#include "engine/output_stream.h"
#include "engine/prefill.h"
#include "reader/speculative.h"
#include "reader/verify.h"

namespace reader {
namespace {
using Clock = std::chrono::steady_clock;
double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}
}  // namespace

GenerationResult generate_speculative(Model& model, TokenSpan prompt,
                                      const GenerationOptions& options, Drafter& drafter,
                                      const TextCallback& on_text) {
  check_prompt(model, prompt);
  model.kv_clear();
  Sampler sampler(options.sampling);
  OutputStream out(model, options, on_text, static_cast<int>(prompt.size()));
  GenerationStats stats;
  TreeVerifier verifier(model, /*main_seq=*/0, /*first_branch_seq=*/1);

  const auto t0 = Clock::now();
  drafter.begin(prompt);
  const float* logits = prefill(model, prompt, 0);
  const auto t1 = Clock::now();

  Tokens context(prompt.begin(), prompt.end());
  if (options.on_logits) options.on_logits(0, logits);
  Token root = sampler.pick(logits, model.n_vocab(), 0);
  int root_pos = static_cast<int>(prompt.size());  // the root is not in the KV cache yet
  if (out.push(root)) {
    stats.accepted_by_source[static_cast<size_t>(DraftSource::kModel)]++;
    context.push_back(root);
    drafter.commit({&root, 1});
  }
  while (!out.done()) {
    const auto a = Clock::now();
    // The tree's cells must fit in the KV cache next to the committed prefix.
    // ... and never hold more than the tokens that may still be emitted.
    DraftTree tree = drafter.draft(
        context, std::min(model.n_ctx() - root_pos, options.max_tokens - out.size() + 1));
    const auto b = Clock::now();
    verifier.evaluate(tree, root_pos);
    const auto c = Clock::now();

    // Node at depth d predicts output position out.size() + d (the root is already out).
    const auto first_position = static_cast<uint64_t>(out.size());
    const Acceptance acc = accept_longest_path(tree, [&](int node) {
      if (options.on_logits)
        options.on_logits(static_cast<int>(first_position) + tree.depth(node),
                          verifier.logits(node));
      return sampler.pick(verifier.logits(node), model.n_vocab(),
                          first_position + static_cast<uint64_t>(tree.depth(node)));
    });
    drafter.observe(tree, [&](int node) { return verifier.logits(node); });
    drafter.feedback(tree, acc.nodes);

    const int before = out.size();
    for (Token t : acc.emitted)
      if (!out.push(t)) break;
    const int committed = out.size() - before;  // the stream may stop mid-span
    // Keep in the KV cache only cells of tokens the output holds: a stop mid-span (EOS or
    // a stop string inside an accepted path) leaves nothing past the end.
    Acceptance kept = acc;
    if (committed < static_cast<int>(acc.emitted.size()))
      kept.nodes.resize(
          static_cast<size_t>(std::min(committed, static_cast<int>(acc.nodes.size()) - 1) + 1));
    verifier.commit(tree, kept, root_pos);
    context.insert(context.end(), acc.emitted.begin(), acc.emitted.begin() + committed);
    drafter.commit(TokenSpan(acc.emitted).first(static_cast<size_t>(committed)));
    root_pos += static_cast<int>(acc.nodes.size());
    root = acc.emitted.back();
    const auto d = Clock::now();

    ++stats.steps;
    stats.drafted_tokens += tree.size() - 1;
    for (int node = 1; node < tree.size(); ++node)
      stats.drafted_by_source[static_cast<size_t>(tree.source(node))]++;
    stats.draft_ms += ms_between(a, b);
    stats.verify_ms += ms_between(b, c);
    stats.bookkeeping_ms += ms_between(c, d);
    if (static_cast<int>(stats.accepted_histogram.size()) <= committed)
      stats.accepted_histogram.resize(static_cast<size_t>(committed) + 1);
    stats.accepted_histogram[static_cast<size_t>(committed)]++;
    // Committed token k is accepted draft node k+1, or the model's own (bonus) token.
    for (int k = 0; k < committed; ++k) {
      const size_t node = static_cast<size_t>(k) + 1;
      const DraftSource src =
          node < acc.nodes.size() ? tree.source(acc.nodes[node]) : DraftSource::kModel;
      stats.accepted_by_source[static_cast<size_t>(src)]++;
    }
  }
  const auto t2 = Clock::now();

  GenerationResult result = out.finish();
  drafter.finish(prompt, result.tokens);
  stats.generated_tokens = result.stats.generated_tokens;
  stats.prompt_tokens = static_cast<int>(prompt.size());
  stats.prefill_ms = ms_between(t0, t1);
  stats.decode_ms = ms_between(t1, t2);
  result.stats = stats;
  return result;
}

}  // namespace reader
