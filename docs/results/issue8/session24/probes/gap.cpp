// gap MODEL CTX STEPS KIND AMOUNT: alternates one-token decodes right after the previous one
// with one-token decodes after "gap work" (KIND evict MB | spin us | sleep us); prints medians.
#include "probe.h"
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

int main(int argc, char** argv) {
  const char* path = argv[1]; int ctx = atoi(argv[2]); int steps = atoi(argv[3]);
  std::string kind = argv[4]; double amount = atof(argv[5]);
  std::vector<char> buf(kind == "evict" ? (size_t)(amount * 1048576) : 64, 1);
  llama_model* m = probe_model(path);
  llama_context* c = probe_context(m);
  llama_batch b = llama_batch_init(512, 0, 1);
  prefill(c, b, ctx);
  int pos = ctx;
  std::vector<double> t[2];
  for (int s = 0; s < 2 * steps; ++s) {
    const int mode = s % 2;
    if (mode == 1) {
      if (kind == "evict") { for (size_t i = 0; i < buf.size(); i += 64) buf[i] = (char)(buf[i] + 1); }
      else if (kind == "spin") { auto t0 = Clock::now(); volatile long x = 0; while (std::chrono::duration<double, std::micro>(Clock::now() - t0).count() < amount) x = x + 1; }
      else if (kind == "sleep") std::this_thread::sleep_for(std::chrono::microseconds((long)amount));
    }
    b.n_tokens = 1; put(b, 0, 500 + pos % 9000, pos);
    auto a = Clock::now(); llama_decode(c, b); llama_get_logits_ith(c, 0);
    t[mode].push_back(std::chrono::duration<double, std::milli>(Clock::now() - a).count());
    llama_memory_seq_rm(llama_get_memory(c), 0, pos, -1);  // same context every time
  }
  printf("%s %g: plain %.3f  after-gap %.3f  ratio %.3f\n", kind.c_str(), amount, median(t[0]), median(t[1]), median(t[1]) / median(t[0]));
}
