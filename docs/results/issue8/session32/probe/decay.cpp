// After a decode of `big` tokens (all logits, or the last only), five one-token decodes, each
// timed; `decay sleep` instead sleeps 0, 10 or 30 ms after the long decode. Medians of 30 rounds.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>
#include "reader/model.h"
#include "reader/sampling.h"
#include "verify/prefill.h"
using namespace reader;
using Clock = std::chrono::steady_clock;
double med(std::vector<double> v){std::sort(v.begin(),v.end());return v[v.size()/2];}
int main(int argc,char**argv){
  const bool sleep_mode = argc > 1 && std::strcmp(argv[1], "sleep") == 0;
  ModelOptions o; o.path=default_model_path(); o.n_threads=2; o.n_ctx=4096;
  auto m = Model::load(o);
  Tokens toks = probe_tokens(*m, 1200);
  int ctx = 400;
  prefill(*m, TokenSpan(toks).first(ctx), 0);
  Token sink=0;
  auto dec=[&](int n, bool all){ int s0[]={0}; auto b=chain_batch(toks,ctx,n,s0); if(!all) for(int i=0;i<n-1;i++) b[i].want_logits=false; auto a=Clock::now(); m->decode(b); for(int i=all?0:n-1;i<n;i++) sink^=argmax(m->logits(i),m->n_vocab()); double d=std::chrono::duration<double,std::milli>(Clock::now()-a).count(); m->kv_seq_rm(0,ctx,-1); return d; };
  struct C{int big; bool all; int sleep_ms;};
  const std::vector<C> cs = sleep_mode
      ? std::vector<C>{{1,true,0},{16,true,0},{16,true,10},{16,true,30},{64,true,0},{64,true,10},{64,true,30}}
      : std::vector<C>{{1,true,0},{4,true,0},{4,false,0},{8,true,0},{8,false,0},{16,true,0},{16,false,0},{64,true,0}};
  std::vector<std::vector<std::vector<double>>> t(cs.size(), std::vector<std::vector<double>>(6));
  for(int r=0;r<30;r++) for(size_t c=0;c<cs.size();c++){
    for(int w=0;w<4;w++) dec(1,true);
    t[c][0].push_back(dec(cs[c].big,cs[c].all));
    if(cs[c].sleep_ms) std::this_thread::sleep_for(std::chrono::milliseconds(cs[c].sleep_ms));
    for(int k=1;k<6;k++) t[c][k].push_back(dec(1,true));
  }
  for(size_t c=0;c<cs.size();c++){
    if(sleep_mode) printf("big %2d sleep %d: big %.2f  then 1-tok:",cs[c].big,cs[c].sleep_ms,med(t[c][0]));
    else printf("big %2d all %d: big %.2f  then 1-tok:",cs[c].big,cs[c].all,med(t[c][0]));
    for(int k=1;k<6;k++) printf(" %.2f",med(t[c][k]));
    printf("\n");
  }
  return sink==-7;
}
