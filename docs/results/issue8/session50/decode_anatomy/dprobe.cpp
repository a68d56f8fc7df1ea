#include "llama.h"
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
int main(int argc, char** argv) {
  const char* path = argv[1]; int n = atoi(argv[2]); int iters = atoi(argv[3]);
  int repack = argc > 4 ? atoi(argv[4]) : 1;
  llama_backend_init();
  auto mp = llama_model_default_params(); mp.use_extra_bufts = repack;
  llama_model* m = llama_model_load_from_file(path, mp);
  auto cp = llama_context_default_params(); int P = getenv("PREFILL") ? atoi(getenv("PREFILL")) : 512; cp.n_ctx = P + 256; cp.n_batch = P + 256; cp.n_ubatch=P + 256;
  int th = getenv("THREADS") ? atoi(getenv("THREADS")) : 2; cp.n_threads = th; cp.n_threads_batch = th; cp.flash_attn_type = LLAMA_FLASH_ATTN_TYPE_ENABLED;
  llama_context* c = llama_init_from_model(m, cp);
  const llama_vocab* v = llama_model_get_vocab(m);
  int nv = llama_vocab_n_tokens(v);
  llama_batch b = llama_batch_init(P + 256, 0, 1);
  auto add = [&](int tok, int pos, bool lg){ b.token[b.n_tokens]=tok; b.pos[b.n_tokens]=pos; b.n_seq_id[b.n_tokens]=1; b.seq_id[b.n_tokens][0]=0; b.logits[b.n_tokens]=lg; b.n_tokens++; };
  b.n_tokens=0; for (int i=0;i<P;i++) add(100+(i*37)%5000, i, false); b.logits[P-1]=1;
  llama_decode(c, b);
  std::vector<double> ts;
  for (int it=0; it<iters; ++it) {
    b.n_tokens=0; for (int i=0;i<n;i++) add(200+(i*91+it)%5000, P+i, true);
    auto t0=std::chrono::steady_clock::now();
    llama_decode(c, b);
    long s=0; for (int i=0;i<n;i++){ float* l=llama_get_logits_ith(c,i); s += std::max_element(l,l+nv)-l; }
    auto t1=std::chrono::steady_clock::now();
    ts.push_back(std::chrono::duration<double,std::milli>(t1-t0).count() + (s==-1));
    llama_memory_seq_rm(llama_get_memory(c), 0, P, -1);
  }
  std::sort(ts.begin(), ts.end());
  printf("n=%d median %.3f ms p10 %.3f p90 %.3f\n", n, ts[ts.size()/2], ts[ts.size()/10], ts[ts.size()*9/10]);
}
