#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <map>
#include <vector>
#include "reader/model.h"
#include "reader/sampling.h"
#include "verify/prefill.h"
using namespace reader;
using Clock = std::chrono::steady_clock;
double med(std::vector<double> v){std::sort(v.begin(),v.end());return v[v.size()/2];}
int main(int argc,char**argv){
  ModelOptions o; o.path=default_model_path(); o.n_threads=2; o.n_ctx=4096;
  if(argc>2) o.graph_cache=atoi(argv[2]);
  auto m = Model::load(o);
  Tokens toks = probe_tokens(*m, 1200);
  int ctx = argc>1?atoi(argv[1]):512;
  prefill(*m, TokenSpan(toks).first(ctx), 0);
  std::vector<int> sizes={1,2,4,8,16,32,64};
  std::map<std::pair<int,int>,std::vector<double>> t; // (prev,this)
  int prev=1; Token sink=0;
  auto dec=[&](int n){ int s0[]={0}; auto b=chain_batch(toks,ctx,n,s0); auto a=Clock::now(); m->decode(b); for(int i=0;i<n;i++) sink^=argmax(m->logits(i),m->n_vocab()); double d=std::chrono::duration<double,std::milli>(Clock::now()-a).count(); m->kv_seq_rm(0,ctx,-1); t[{prev,n}].push_back(d); prev=n; };
  for(int r=0;r<12;r++) for(size_t k=0;k<sizes.size();k++){ int s=sizes[(k+r)%sizes.size()]; dec(1); dec(s);} 
  for(auto&[k,v]:t) printf("prev %2d this %2d  n=%3zu median %.3f ms\n",k.first,k.second,v.size(),med(v));
  return sink==-7;
}
