// The logits of decodes of 1, 2, 3, 4 and 8 tokens after CTX cached tokens, hashed (FNV-1a over
// their bits): run with LD_LIBRARY_PATH at each build_lib.sh output to compare two builds.
// Build as session32/probe/HOWTO.md says; usage: logit_hash CTX
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include "reader/model.h"
#include "reader/sampling.h"
#include "verify/prefill.h"
using namespace reader;
int main(int argc,char**argv){
  const int ctx=atoi(argv[1]);
  ModelOptions o; o.path=default_model_path(); o.n_threads=2; o.n_ctx=4096;
  auto m = Model::load(o);
  Tokens toks = probe_tokens(*m, ctx+80);
  prefill(*m, TokenSpan(toks).first(ctx), 0);
  for (int n : {1,2,3,4,8}) { int s0[]={0}; auto b=chain_batch(toks,ctx,n,s0); m->decode(b);
    unsigned long h=1469598103934665603ul; for(int i=0;i<n;i++){ const float* l=m->logits(i); for(int v=0;v<m->n_vocab();v++){ unsigned u; memcpy(&u,&l[v],4); h=(h^u)*1099511628211ul; } }
    printf("n=%d hash %016lx\n",n,h); m->kv_seq_rm(0,ctx,-1); }
}
