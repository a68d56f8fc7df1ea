#include "llama.h"
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <time.h>
// alt2 MODEL ITERS: one-token decodes timed after different preceding events, interleaved:
// 0 right after a one-token decode, 1 after 1 ms of main-thread work, 2 after 7 ms of it, 3 after an 8-token decode, 4 after 7 ms asleep
using clk = std::chrono::steady_clock;
static double ms(clk::time_point a, clk::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }
int main(int argc, char** argv) {
  llama_backend_init();
  llama_model* m = llama_model_load_from_file(argv[1], llama_model_default_params());
  const int iters = atoi(argv[2]);
  auto cp = llama_context_default_params(); cp.n_ctx = 1024; cp.n_batch = 1024; cp.n_ubatch = 1024;
  cp.n_threads = 2; cp.n_threads_batch = 2; cp.flash_attn_type = LLAMA_FLASH_ATTN_TYPE_ENABLED;
  llama_context* c = llama_init_from_model(m, cp);
  llama_set_graph_cache(c, 8, 32);
  int nv = llama_vocab_n_tokens(llama_model_get_vocab(m));
  llama_batch b = llama_batch_init(1024, 0, 1);
  auto add = [&](int tok, int pos, bool lg){ b.token[b.n_tokens]=tok; b.pos[b.n_tokens]=pos; b.n_seq_id[b.n_tokens]=1; b.seq_id[b.n_tokens][0]=0; b.logits[b.n_tokens]=lg; b.n_tokens++; };
  b.n_tokens=0; for (int i=0;i<512;i++) add(100+(i*37)%5000, i, false); b.logits[511]=1;
  llama_decode(c, b);
  auto decode = [&](int n, int salt) { b.n_tokens=0; for (int i=0;i<n;i++) add(200+(i*91+salt)%5000, 512+i, true); llama_decode(c, b);
    float* l=llama_get_logits_ith(c,0); volatile long s = std::max_element(l,l+nv)-l; (void)s; llama_memory_seq_rm(llama_get_memory(c), 0, 512, -1); };
  std::vector<double> t[5];
  for (int it = 0; it < iters; ++it) {
    const int mode = it % 5;
    if (mode == 0) decode(1, it);
    if (mode == 1 || mode == 2) { auto s0 = clk::now(); volatile double x = 1; while (ms(s0, clk::now()) < (mode == 1 ? 1.0 : 7.0)) x = x * 1.0000001; }
    if (mode == 3) decode(8, it);
    if (mode == 4) { struct timespec ts{0, 7000000}; nanosleep(&ts, nullptr); }
    auto t0 = clk::now(); decode(1, it + 7); t[mode].push_back(ms(t0, clk::now()));
  }
  const char* names[5] = {"after 1-token decode", "after 1 ms work", "after 7 ms work", "after 8-token decode", "after 7 ms asleep"};
  for (int k = 0; k < 5; ++k) { std::sort(t[k].begin(), t[k].end()); printf("%-22s median %.3f ms p10 %.3f\n", names[k], t[k][t[k].size()/2], t[k][t[k].size()/10]); }
}
