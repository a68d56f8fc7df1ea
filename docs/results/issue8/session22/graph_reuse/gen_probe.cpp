// Generation-like timing: AR = one-token decodes at advancing positions; SPEC n = decodes of
// n tokens at advancing positions (all kept), each after a one-token decode (untimed).
#include "llama.h"
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
using Clock = std::chrono::steady_clock;
int main(int argc, char** argv) {
  const char* path = argv[1]; int n = atoi(argv[2]); int steps = atoi(argv[3]); int ctx = atoi(argv[4]);
  llama_backend_init();
  llama_model* m = llama_model_load_from_file(path, llama_model_default_params());
  auto cp = llama_context_default_params();
  cp.n_ctx = 4096; cp.n_batch = 512; cp.n_ubatch = 512; cp.n_threads = 2; cp.n_threads_batch = 2; cp.no_perf = true;
  cp.flash_attn_type = getenv("FA") ? LLAMA_FLASH_ATTN_TYPE_ENABLED : LLAMA_FLASH_ATTN_TYPE_DISABLED; cp.kv_unified = true; cp.swa_full = true; cp.n_seq_max = getenv("NSEQ") ? atoi(getenv("NSEQ")) : 3;
  llama_context* c = llama_init_from_model(m, cp);
  llama_batch b = llama_batch_init(512, 0, 1);
  auto put = [&](int i, int tok, int pos) { b.token[i]=tok; b.pos[i]=pos; b.n_seq_id[i]=1; b.seq_id[i][0]=0; b.logits[i]=1; };
  int pos = 0;
  for (; pos < ctx; pos += 512) { int k = std::min(512, ctx - pos); b.n_tokens = k; for (int i = 0; i < k; ++i) put(i, 100 + ((pos+i) * 37) % 20000, pos+i); llama_decode(c, b); }
  pos = ctx;
  std::vector<double> t1, tn;
  auto dec = [&](int k) { b.n_tokens = k; for (int i = 0; i < k; ++i) put(i, 500 + (pos + i) % 9000, pos + i); auto a = Clock::now(); llama_decode(c, b); llama_get_logits_ith(c, k-1); pos += k; return std::chrono::duration<double, std::milli>(Clock::now() - a).count(); };
  std::vector<double> after;
  for (int s = 0; s < steps; ++s) { double a = dec(1); if (n > 1) { tn.push_back(dec(n)); after.push_back(dec(1)); } else t1.push_back(a); }
  auto med = [](std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size()/2]; };
  if (n == 1) printf("AR one-token (after one-token): %.3f ms\n", med(t1)); else printf("n=%d after one-token: %.3f ms; one token right after it: %.3f ms\n", n, med(tn), med(after));
}
