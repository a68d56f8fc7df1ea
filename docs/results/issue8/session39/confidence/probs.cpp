// For each {"prompt":[...],"output":[...]} line: per output token, the model's probability of it
// (T = 1), the top probability, and whether it is the argmax. Writes one JSON line per sequence.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include "reader/model.h"
#include "reader/sampling.h"
#include "verify/prefill.h"
using namespace reader;
int main(int argc, char** argv) {
  ModelOptions o; o.path = default_model_path(); o.n_threads = 2; o.n_ctx = 4096;
  auto m = Model::load(o); const int V = m->n_vocab();
  std::ifstream in(argv[1]); std::string line;
  while (std::getline(in, line)) {
    auto j = nlohmann::json::parse(line);
    Tokens prompt = j["prompt"].get<Tokens>(), output = j["output"].get<Tokens>();
    m->kv_clear();
    const float* last = prefill(*m, TokenSpan(prompt).first(prompt.size()), 0);
    std::vector<double> p, top; std::vector<int> is_top;
    auto score = [&](const float* l, Token t) {
      float mx = l[0]; int am = 0; for (int i = 1; i < V; ++i) if (l[i] > mx) { mx = l[i]; am = i; }
      double z = 0; for (int i = 0; i < V; ++i) z += std::exp(double(l[i] - mx));
      p.push_back(std::exp(double(l[t] - mx)) / z); top.push_back(1.0 / z); is_top.push_back(am == t);
    };
    score(last, output[0]);
    Tokens all = prompt; all.insert(all.end(), output.begin(), output.end());
    const int seq0[] = {0};
    for (size_t at = prompt.size(); at + 1 < all.size(); ) {
      const int n = int(std::min<size_t>(64, all.size() - 1 - at));
      auto b = chain_batch(all, int(at), n, seq0);
      m->decode(b);
      for (int i = 0; i < n; ++i) score(m->logits(i), all[at + i + 1]);
      at += n;
    }
    nlohmann::json r = {{"set", j["set"]}, {"p", p}, {"top", top}, {"is_top", is_top}};
    std::cout << r.dump() << "\n";
  }
}
