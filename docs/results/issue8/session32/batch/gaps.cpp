// One KV stream per sequence (as the batched engine keeps them): a decode of one token for
// each of 5 sequences whose ids are consecutive (0-4, or 3-7 since session 33) or have gaps
// (0, 2, 3, 5, 7), and of 2 tokens each; medians of rounds, alternated.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>
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
  std::vector<std::vector<int>> sets = {{0,1,2,3,4},{0,2,3,5,7},{0,1,2,3,4,5,6,7},{3,4,5,6,7}};
  std::vector<std::vector<int>> ids(8); for (int s=0;s<8;++s) ids[s]={s};
  Token sink=0;
  auto run=[&](const std::vector<int>& seqs, int k){
    std::vector<BatchToken> b;
    for (int s : seqs) for (int i=0;i<k;++i) b.push_back({toks[ctx+i], ctx+i, ids[s], true});
    auto a=Clock::now(); m->decode(b); for (int i=0;i<(int)b.size();++i) sink^=argmax(m->logits(i),m->n_vocab());
    double d=std::chrono::duration<double,std::milli>(Clock::now()-a).count();
    for (int s : seqs) m->kv_seq_rm(s, ctx, -1);
    return d; };
  std::vector<std::vector<double>> t(8);
  for (int r=0;r<40;++r) for (int c=0;c<8;++c){ for(int w=0;w<3;++w) run(sets[2],1); double d=run(sets[c/2], 1 + c%2); if(r>2) t[c].push_back(d);} 
  const char* names[]={"0-4","0,2,3,5,7","0-7","3-7"};
  for (int c=0;c<8;++c) printf("ids %-10s x %d token(s): %.2f ms\n", names[c/2], 1+c%2, med(t[c]));
  return sink==-7;
}
