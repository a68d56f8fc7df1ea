// Shared by the stream probes (gaps.cpp, session34/split/uneven.cpp, session35/graph_cache/
// gc_probe.cpp): SmolLM2 with one KV stream for each of 8 sequences (by default), each holding
// the same 256 cached tokens, and a timed decode of some tokens per sequence (lengths[s] for
// sequence s) that leaves the caches as they were.
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
// n_seq sequences (a unified cache for one, a stream each for more), each holding the same
// 256 cached tokens; graph_cache as ModelOptions::graph_cache (session 35's gc_probe.cpp).
struct Streams {
  static constexpr int ctx = 256;
  std::unique_ptr<Model> m;
  Tokens toks;
  std::vector<std::vector<int>> ids;
  Token sink = 0;
  explicit Streams(int n_seq = 8, int graph_cache = ModelOptions{}.graph_cache) {
    ModelOptions o; o.path=default_model_path(); o.n_threads=2; o.n_ctx=1024; o.kv_unified=n_seq==1; o.n_seq_max=n_seq;
    o.graph_cache=graph_cache;
    m = Model::load(o);
    toks = probe_tokens(*m, 400);
    for (int s = 0; s < n_seq; ++s) { prefill(*m, TokenSpan(toks).first(ctx), s); ids.push_back({s}); }
  }
  int n_seq() const { return (int)ids.size(); }
  double decode(const std::vector<int>& lengths) {
    std::vector<BatchToken> b;
    for (int s=0;s<n_seq();++s) for (int i=0;i<lengths[s];++i) b.push_back({toks[ctx+i], ctx+i, ids[s], true});
    auto a=Clock::now(); m->decode(b); for (int i=0;i<(int)b.size();++i) sink^=argmax(m->logits(i),m->n_vocab());
    double d=std::chrono::duration<double,std::milli>(Clock::now()-a).count();
    for (int s=0;s<n_seq();++s) m->kv_seq_rm(s, ctx, -1);
    return d;
  }
};
using EightStreams = Streams;
