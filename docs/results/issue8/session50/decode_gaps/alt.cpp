#include "llama.h"
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <time.h>
// alt MODEL BIG ITERS: times one-token decodes that follow a decode of BIG tokens (BIG=1: back to back)
int main(int argc, char** argv) {
  const char* path = argv[1]; int big = atoi(argv[2]); int iters = atoi(argv[3]);
  llama_backend_init();
  auto mp = llama_model_default_params();
  llama_model* m = llama_model_load_from_file(path, mp);
  auto cp = llama_context_default_params(); cp.n_ctx = 1024; cp.n_batch = 1024; cp.n_ubatch = 1024;
  cp.n_threads = 2; cp.n_threads_batch = 2; cp.flash_attn_type = LLAMA_FLASH_ATTN_TYPE_ENABLED;
  llama_context* c = llama_init_from_model(m, cp);
  if (getenv("GC")) llama_set_graph_cache(c, atoi(getenv("GC")), 32);
  int nv = llama_vocab_n_tokens(llama_model_get_vocab(m));
  llama_batch b = llama_batch_init(1024, 0, 1);
  auto add = [&](int tok, int pos, bool lg){ b.token[b.n_tokens]=tok; b.pos[b.n_tokens]=pos; b.n_seq_id[b.n_tokens]=1; b.seq_id[b.n_tokens][0]=0; b.logits[b.n_tokens]=lg; b.n_tokens++; };
  b.n_tokens=0; for (int i=0;i<512;i++) add(100+(i*37)%5000, i, false); b.logits[511]=1;
  llama_decode(c, b);
  std::vector<double> one, bigt;
  for (int it=0; it<iters; ++it) {
    // the big decode
    b.n_tokens=0; for (int i=0;i<big;i++) add(200+(i*91+it)%5000, 512+i, true);
    auto t0=std::chrono::steady_clock::now(); llama_decode(c, b); auto t1=std::chrono::steady_clock::now();
    bigt.push_back(std::chrono::duration<double,std::milli>(t1-t0).count());
    llama_memory_seq_rm(llama_get_memory(c), 0, 512, -1);
    if (getenv("PAUSE_MS")) { double p = atof(getenv("PAUSE_MS")); auto s0 = std::chrono::steady_clock::now();
      if (getenv("SPIN")) { volatile double x = 1; while (std::chrono::duration<double,std::milli>(std::chrono::steady_clock::now()-s0).count() < p) x = x * 1.0000001; }
      else { struct timespec ts{0, (long)(p*1e6)}; nanosleep(&ts, nullptr); } }
    b.n_tokens=0; add(300+it%5000, 512, true);
    t0=std::chrono::steady_clock::now(); llama_decode(c, b); float* l=llama_get_logits_ith(c,0); volatile long s = std::max_element(l,l+nv)-l; (void)s; t1=std::chrono::steady_clock::now();
    one.push_back(std::chrono::duration<double,std::milli>(t1-t0).count());
    llama_memory_seq_rm(llama_get_memory(c), 0, 512, -1);
  }
  std::sort(one.begin(), one.end()); std::sort(bigt.begin(), bigt.end());
  printf("after %2d-token decodes (%.2f ms): one-token decode median %.3f ms p10 %.3f\n", big, bigt[iters/2], one[iters/2], one[iters/10]);
}
