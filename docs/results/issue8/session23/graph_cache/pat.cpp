// pat MODEL CTX STEPS n1,n2,...: repeats the pattern of decode sizes, prints each slot's median ms.
#include "llama.h"
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include <algorithm>
using Clock = std::chrono::steady_clock;
int main(int argc, char** argv) {
  const char* path = argv[1]; int ctx = atoi(argv[2]); int steps = atoi(argv[3]);
  std::vector<int> pat; { std::string s = argv[4]; size_t p = 0; while (p < s.size()) { pat.push_back(atoi(s.c_str() + p)); p = s.find(',', p); if (p == std::string::npos) break; ++p; } }
  llama_log_set([](ggml_log_level, const char*, void*) {}, nullptr);
  llama_backend_init();
  llama_model* m = llama_model_load_from_file(path, llama_model_default_params());
  auto cp = llama_context_default_params();
  cp.n_ctx = 4096; cp.n_batch = 512; cp.n_ubatch = 512; cp.n_threads = 2; cp.n_threads_batch = 2; cp.no_perf = true;
  cp.flash_attn_type = getenv("FA") ? LLAMA_FLASH_ATTN_TYPE_ENABLED : LLAMA_FLASH_ATTN_TYPE_DISABLED; cp.kv_unified = true; cp.n_seq_max = 3;
  llama_context* c = llama_init_from_model(m, cp);
  llama_batch b = llama_batch_init(512, 0, 1);
  auto put = [&](int i, int tok, int pos) { b.token[i]=tok; b.pos[i]=pos; b.n_seq_id[i]=1; b.seq_id[i][0]=0; b.logits[i]=1; };
  int pos = 0;
  for (; pos < ctx; pos += 512) { int k = std::min(512, ctx - pos); b.n_tokens = k; for (int i = 0; i < k; ++i) put(i, 100 + ((pos+i) * 37) % 20000, pos+i); llama_decode(c, b); }
  pos = ctx;
  std::vector<std::vector<double>> t(pat.size());
  for (int s = 0; s < steps; ++s) for (size_t j = 0; j < pat.size(); ++j) {
    int k = pat[j]; b.n_tokens = k; for (int i = 0; i < k; ++i) put(i, 500 + (pos + i) % 9000, pos + i);
    auto a = Clock::now(); llama_decode(c, b); llama_get_logits_ith(c, k-1);
    t[j].push_back(std::chrono::duration<double, std::milli>(Clock::now() - a).count());
    // keep the context from growing: drop what was decoded (as rejected drafts are)
    llama_memory_seq_rm(llama_get_memory(c), 0, pos + 1, -1); pos += 1;
  }
  for (size_t j = 0; j < pat.size(); ++j) { auto v = t[j]; std::sort(v.begin(), v.end()); printf("%d:%.3f ", pat[j], v[v.size()/2]); }
  printf("\n");
}
