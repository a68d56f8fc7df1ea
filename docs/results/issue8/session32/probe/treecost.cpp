#include <chrono>
#include <cstdio>
#include <algorithm>
#include <vector>
#include "reader/model.h"
#include "reader/sampling.h"
#include "verify/prefill.h"
using namespace reader;
using Clock = std::chrono::steady_clock;
static double ms(Clock::time_point a, Clock::time_point b){return std::chrono::duration<double,std::milli>(b-a).count();}
double med(std::vector<double> v){std::sort(v.begin(),v.end());return v[v.size()/2];}
int main(int argc,char**argv){
  ModelOptions o; o.n_threads=2; o.n_seq_max=64; o.n_ctx=4096;
  o.path=default_model_path(); auto m = Model::load(o);
  Tokens toks = probe_tokens(*m, 1200);
  int ctx = argc>1?atoi(argv[1]):300;
  prefill(*m, TokenSpan(toks).first(ctx), 0);
  // configs: branches count b, tokens n. tree: root + b branches splitting n-1 tokens
  struct Cfg{int n; int b;};
  std::vector<Cfg> cfgs={{1,0},{4,0},{4,2},{8,0},{8,3},{16,0},{16,4}};
  std::vector<std::vector<double>> t(cfgs.size()), tp(cfgs.size()), t1after(cfgs.size());
  Token sink=0;
  for(int r=0;r<25;r++) for(size_t c=0;c<cfgs.size();c++){
    auto [n,b]=cfgs[c];
    // 1-token decode first
    { std::vector<BatchToken> bt; int s0[]={0}; bt=chain_batch(toks,ctx,1,s0); m->decode(bt); m->kv_seq_rm(0,ctx,-1);}
    std::vector<BatchToken> batch; std::vector<std::vector<int>> ids(n);
    auto a0=Clock::now();
    if(b==0){ for(int i=0;i<n;i++) ids[i]={0}; }
    else {
      for(int k=0;k<b;k++) m->kv_seq_cp(0,64-b+k-0,-1,-1);
      // hmm seq ids 1..b
    }
    batch.clear();
    if(b==0){ for(int i=0;i<n;i++) batch.push_back({toks[ctx+i],ctx+i,std::span<const int>(&ids[i][0],1),true}); }
    else {
      static std::vector<std::vector<int>> bid; bid.assign(n,{});
      for(int k=0;k<b;k++) m->kv_seq_cp(0,1+k,-1,-1);
      for(int k=1;k<=b;k++) bid[0].push_back(k);
      int per=(n-1)/b, extra=(n-1)%b, idx=1;
      for(int k=0;k<b;k++){int len=per+(k<extra); for(int d=1;d<=len;d++){bid[idx]={1+k}; batch.push_back({toks[ctx+idx],ctx+d,bid[idx],true}); idx++;}}
      batch.insert(batch.begin(), BatchToken{toks[ctx],ctx,bid[0],true});
    }
    auto a1=Clock::now();
    m->decode(batch);
    for(int i=0;i<n;i++) sink^=argmax(m->logits(i),m->n_vocab());
    auto a2=Clock::now();
    if(b){ m->kv_seq_cp(1,0,ctx+1,ctx+3); for(int k=0;k<b;k++) m->kv_seq_rm(1+k,-1,-1);} 
    m->kv_seq_rm(0,ctx,-1);
    auto a3=Clock::now();
    { std::vector<BatchToken> bt; int s0[]={0}; bt=chain_batch(toks,ctx,1,s0); auto x=Clock::now(); m->decode(bt); auto y=Clock::now(); m->kv_seq_rm(0,ctx,-1); if(r>2) t1after[c].push_back(ms(x,y));}
    if(r>2){ t[c].push_back(ms(a1,a2)); tp[c].push_back(ms(a0,a1)+ms(a2,a3)); }
  }
  double base=med(t[0]);
  for(size_t c=0;c<cfgs.size();c++) printf("n=%2d branches=%d decode %.3f ms c=%.2f  kv-ops %.3f ms  next1tok %.3f\n",cfgs[c].n,cfgs[c].b,med(t[c]),med(t[c])/base,med(tp[c]),med(t1after[c]));
  return sink==-7;
}
