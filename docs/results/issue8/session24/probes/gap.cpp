// gap MODEL CTX STEPS KIND AMOUNT: alternates one-token decodes right after the previous one
// with one-token decodes after "gap work" (KIND evict MB | spin us | sleep us); prints medians.
#include "llama.h"
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>
using Clock = std::chrono::steady_clock;
static double med(std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }
int main(int argc, char** argv) {
  const char* path = argv[1]; int ctx = atoi(argv[2]); int steps = atoi(argv[3]);
  std::string kind = argv[4]; double amount = atof(argv[5]);
  std::vector<char> buf(kind == "evict" ? (size_t)(amount * 1048576) : 64, 1);
  llama_log_set([](ggml_log_level, const char*, void*) {}, nullptr);
  llama_backend_init();
  llama_model* m = llama_model_load_from_file(path, llama_model_default_params());
  auto cp = llama_context_default_params();
  cp.n_ctx = 4096; cp.n_batch = 512; cp.n_ubatch = 512; cp.n_threads = 2; cp.n_threads_batch = 2; cp.no_perf = true;
  cp.flash_attn_type = LLAMA_FLASH_ATTN_TYPE_ENABLED;
  llama_context* c = llama_init_from_model(m, cp);
  llama_batch b = llama_batch_init(512, 0, 1);
  auto put = [&](int i, int tok, int pos) { b.token[i]=tok; b.pos[i]=pos; b.n_seq_id[i]=1; b.seq_id[i][0]=0; b.logits[i]=1; };
  int pos = 0;
  for (; pos < ctx; pos += 512) { int k = std::min(512, ctx - pos); b.n_tokens = k; for (int i = 0; i < k; ++i) put(i, 100 + ((pos+i) * 37) % 20000, pos+i); llama_decode(c, b); }
  pos = ctx;
  std::vector<double> t[2];
  for (int s = 0; s < 2 * steps; ++s) {
    const int mode = s % 2;
    if (mode == 1) {
      if (kind == "evict") { for (size_t i = 0; i < buf.size(); i += 64) buf[i] = (char)(buf[i] + 1); }
      else if (kind == "spin") { auto t0 = Clock::now(); volatile long x = 0; while (std::chrono::duration<double, std::micro>(Clock::now() - t0).count() < amount) x = x + 1; }
      else if (kind == "sleep") std::this_thread::sleep_for(std::chrono::microseconds((long)amount));
    }
    b.n_tokens = 1; put(0, 500 + pos % 9000, pos);
    auto a = Clock::now(); llama_decode(c, b); llama_get_logits_ith(c, 0);
    t[mode].push_back(std::chrono::duration<double, std::milli>(Clock::now() - a).count());
    llama_memory_seq_rm(llama_get_memory(c), 0, pos, -1);  // same context every time
  }
  printf("%s %g: plain %.3f  after-gap %.3f  ratio %.3f\n", kind.c_str(), amount, med(t[0]), med(t[1]), med(t[1]) / med(t[0]));
}
