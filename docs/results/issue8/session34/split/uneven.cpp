// One KV stream per sequence: one decode where sequences 0-7 send these numbers of tokens
// (drafts + root), 256 cached tokens each; medians of 31 alternated rounds. Does an id with
// fewer tokens between longer ones split their pass, as split_equal's walk says?
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>
#include "engine/batch_policy.h"
#include "reader/model.h"
#include "reader/sampling.h"
#include "verify/prefill.h"
using namespace reader;
using Clock = std::chrono::steady_clock;
double med(std::vector<double> v){std::sort(v.begin(),v.end());return v[v.size()/2];}
int main(){
  ModelOptions o; o.path=default_model_path(); o.n_threads=2; o.n_ctx=1024; o.kv_unified=false; o.n_seq_max=8;
  auto m = Model::load(o);
  Tokens toks = probe_tokens(*m, 400);
  const int ctx = 256;
  for (int s = 0; s < 8; ++s) prefill(*m, TokenSpan(toks).first(ctx), s);
  std::vector<std::vector<int>> layouts = {{1,1,1,1,1,1,1,1},{2,2,2,2,1,1,1,1},{2,1,2,1,2,1,2,1},
                                           {3,3,3,3,1,1,1,1},{3,1,3,1,3,1,3,1},{2,2,2,2,2,2,2,2}};
  std::vector<std::vector<int>> ids(8); for (int s=0;s<8;++s) ids[s]={s};
  Token sink=0;
  auto run=[&](const std::vector<int>& len){
    std::vector<BatchToken> b;
    for (int s=0;s<8;++s) for (int i=0;i<len[s];++i) b.push_back({toks[ctx+i], ctx+i, ids[s], true});
    auto a=Clock::now(); m->decode(b); for (int i=0;i<(int)b.size();++i) sink^=argmax(m->logits(i),m->n_vocab());
    double d=std::chrono::duration<double,std::milli>(Clock::now()-a).count();
    for (int s=0;s<8;++s) m->kv_seq_rm(s, ctx, -1);
    return d; };
  std::vector<std::vector<double>> t(layouts.size());
  for (int r=0;r<34;++r) for (size_t c=0;c<layouts.size();++c){ run(layouts[0]); double d=run(layouts[c]); if(r>2) t[c].push_back(d);}
  for (size_t c=0;c<layouts.size();++c){
    printf("lengths");
    for (int l : layouts[c]) printf(" %d", l);
    // Passes as split_step_cost counts them, each priced 1.
    printf(": %.2f ms, %g passes\n", med(t[c]), split_step_cost(layouts[c], [](int,int){return 1.0;}));
  }
  return sink==-7;
}
