// Shared by the stream probes (gaps.cpp, session34/split/uneven.cpp): SmolLM2 with one KV
// stream for each of 8 sequences, each holding the same 256 cached tokens, and a timed decode
// of some tokens per sequence (lengths[s] for sequence s) that leaves the caches as they were.
#pragma once
#include <algorithm>
#include <chrono>
#include <vector>
#include "reader/model.h"
#include "reader/sampling.h"
#include "verify/prefill.h"
using namespace reader;
using Clock = std::chrono::steady_clock;
inline double med(std::vector<double> v){std::sort(v.begin(),v.end());return v[v.size()/2];}
struct EightStreams {
  static constexpr int ctx = 256;
  std::unique_ptr<Model> m;
  Tokens toks;
  std::vector<std::vector<int>> ids;
  Token sink = 0;
  EightStreams() {
    ModelOptions o; o.path=default_model_path(); o.n_threads=2; o.n_ctx=1024; o.kv_unified=false; o.n_seq_max=8;
    m = Model::load(o);
    toks = probe_tokens(*m, 400);
    for (int s = 0; s < 8; ++s) { prefill(*m, TokenSpan(toks).first(ctx), s); ids.push_back({s}); }
  }
  double decode(const std::vector<int>& lengths) {
    std::vector<BatchToken> b;
    for (int s=0;s<8;++s) for (int i=0;i<lengths[s];++i) b.push_back({toks[ctx+i], ctx+i, ids[s], true});
    auto a=Clock::now(); m->decode(b); for (int i=0;i<(int)b.size();++i) sink^=argmax(m->logits(i),m->n_vocab());
    double d=std::chrono::duration<double,std::milli>(Clock::now()-a).count();
    for (int s=0;s<8;++s) m->kv_seq_rm(s, ctx, -1);
    return d;
  }
};
