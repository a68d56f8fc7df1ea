// Offline probe: under sampling (T, seed), how often does a recycled successor chain drafted
// (a) best-first or (b) by the coupled draw U_t over stored probabilities match the sampled text?
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <unordered_map>
#include <vector>
#include "prompt_sets.h"
#include "prompt_render.h"
#include "reader/generate.h"
#include "reader/model.h"
#include "reader/sampling.h"
using namespace reader;
struct Row { Token tok[4]; double p[4]; };
int main(int argc, char** argv) {
  const char* set = argv[1]; int n = atoi(argv[2]); float T = atof(argv[3]); uint64_t seed = atoll(argv[4]); int off = argc>5?atoi(argv[5]):20;
  ModelOptions o; o.path = default_model_path(); o.n_threads = 2; o.n_ctx = 4096;
  auto m = Model::load(o);
  auto items = load_prompt_set(set, default_data_dir(), n, off);
  const int V = m->n_vocab();
  long pos_total=0, top1=0; long hit_plain[5]={0}, hit_coup[5]={0}, hit_oracle_rank[5]={0}; long rank_hist[6]={0};
  std::unordered_map<uint64_t, Row> table1, table3;  // per token, per 3-token context
  long chain_plain=0, chain_coup=0, chain_n=0;
  for (auto& it : items) {
    std::string text = render_chat_prompt(*m, it, 128);
    Tokens prompt = m->tokenize(text, true, true);
    std::vector<std::vector<std::pair<double,Token>>> dist; // per position top-8 probs at T
    GenerationOptions g; g.max_tokens = 128; g.sampling.temperature = T; g.sampling.seed = seed;
    g.on_logits = [&](int position, const float* l) {
      if ((int)dist.size() <= position) dist.resize(position+1);
      std::vector<std::pair<float,Token>> best; top_k_tokens(l, V, 8, best);
      double mx = best[0].first, z = 0; for (int i=0;i<V;i++) z += std::exp((l[i]-mx)/ (T>0?T:1));
      auto& d = dist[position]; d.clear();
      for (auto& b : best) d.push_back({std::exp((b.first-mx)/(T>0?T:1))/z, b.second});
    };
    m->kv_clear();
    auto r = generate_autoregressive(*m, prompt, g);
    Tokens all = prompt; size_t p0 = prompt.size();
    for (Token t : r.tokens) all.push_back(t);
    // walk positions: at output position t (token all[p0+t]), the distribution dist[t] is p(.|all[..p0+t])
    auto key3 = [&](size_t i) { return ((uint64_t)all[i] ) | ((uint64_t)all[i-1] << 20) | ((uint64_t)all[i-2] << 40); };
    for (size_t t = 0; t < r.tokens.size() && t < dist.size(); ++t) {
      size_t i = p0 + t;  // index of token sampled at position t; predecessor all[i-1]
      Token actual = all[i];
      int rank = 5; for (int k=0;k<5 && k<(int)dist[t].size();k++) if (dist[t][k].second==actual){rank=k;break;}
      rank_hist[rank]++; pos_total++; if (rank==0) top1++;
      // predict from stored row of predecessor context
      const Row* row = nullptr; bool ctx3=false;
      if (i >= 3) { auto f = table3.find(key3(i-1)); if (f != table3.end()) {row = &f->second; ctx3=true;} }
      if (!row) { auto f = table1.find(all[i-1]); if (f != table1.end()) row = &f->second; }
      if (row) {
        double U = position_uniform(seed, t);
        Token plain = row->tok[0];
        double cum=0; Token coup = row->tok[0];
        for (int k=0;k<4;k++){ cum += row->p[k]; if (U < cum) { coup = row->tok[k]; break; } if (k==3) coup = row->tok[0]; }
        hit_plain[0] += plain==actual; hit_coup[0] += coup==actual; hit_oracle_rank[0] += (row->tok[0]==actual||row->tok[1]==actual||row->tok[2]==actual||row->tok[3]==actual);
        hit_plain[1]++; if(ctx3){hit_plain[2]++; hit_plain[3]+=plain==actual; hit_coup[3]+=coup==actual;}
      }
      // store row for context ending at all[i-1] from dist[t]
      Row nr; for (int k=0;k<4;k++){ nr.tok[k]=dist[t][k].second; nr.p[k]=dist[t][k].first; }
      table1[all[i-1]] = nr; if (i>=3) table3[key3(i-1)] = nr;
    }
  }
  printf("%s T=%.2f seed=%llu positions %ld top1 %.3f ranks", set, T, (unsigned long long)seed, pos_total, (double)top1/pos_total);
  for (int k=0;k<6;k++) printf(" %.3f", (double)rank_hist[k]/pos_total);
  printf("\n  ctx3 rows %ld: plain %.3f coupled %.3f", hit_plain[2], (double)hit_plain[3]/hit_plain[2], (double)hit_coup[3]/hit_plain[2]); printf("\n  with row %ld: plain %.3f coupled %.3f any-of-4 %.3f\n", hit_plain[1], (double)hit_plain[0]/hit_plain[1], (double)hit_coup[0]/hit_plain[1], (double)hit_oracle_rank[0]/hit_plain[1]);
}
