// Replays recorded verification steps (export.py) on the model: trees as recorded, or the same
// sizes as chains, alternated per generation; prints median ms per size per arm.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>
#include "reader/model.h"
#include "reader/verify.h"
#include "verify/prefill.h"
using namespace reader;
using Clock = std::chrono::steady_clock;
struct Step { std::vector<int> parents; Tokens tokens; std::vector<int> path; };
struct Gen { Tokens prompt; std::vector<Step> steps; };
int main(int argc, char** argv) {
  ModelOptions o; o.path = argv[1]; o.n_ctx = 4096; o.n_threads = 2; o.flash_attn = true; o.n_seq_max = 64;
  auto m = Model::load(o);
  std::ifstream in(argv[2]);
  const int rounds = argc > 3 ? atoi(argv[3]) : 2;
  std::vector<Gen> gens; std::string line;
  while (std::getline(in, line)) {
    std::istringstream ss(line); std::string tag; ss >> tag;
    if (tag == "P") { int n; ss >> n; Gen g; g.prompt.resize(n); for (auto& t : g.prompt) ss >> t; gens.push_back(g); }
    else { Step s; int k; ss >> k; s.parents.resize(k - 1); for (auto& p : s.parents) ss >> p;
      s.tokens.resize(k); for (auto& t : s.tokens) ss >> t; int a; ss >> a; s.path.resize(a); for (auto& x : s.path) ss >> x;
      gens.back().steps.push_back(s); }
  }
  std::map<std::pair<int,int>, std::vector<double>> t;  // (arm, size) -> ms
  for (int r = 0; r < rounds; ++r)
    for (const Gen& g : gens)
      for (int arm : {r % 2, 1 - r % 2}) {  // 0 trees, 1 chains
        m->kv_clear();
        prefill(*m, g.prompt, 0);
        int pos = static_cast<int>(g.prompt.size());  // the first generated token is the first root
        for (const Step& s : g.steps) {
          DraftTree tree(s.tokens[0], 1024);
          if (arm == 0) for (size_t i = 1; i < s.tokens.size(); ++i) tree.add(s.parents[i - 1], s.tokens[i], DraftSource::kWidening);
          else for (size_t i = 1; i < s.tokens.size(); ++i) tree.add(static_cast<int>(i) - 1, s.tokens[i], DraftSource::kWidening);
          TreeLayout layout; std::vector<BatchToken> batch;
          place_tree(*m, tree, pos, 0, 1, layout, batch);
          auto a = Clock::now(); m->decode(batch);
          double ms = std::chrono::duration<double, std::milli>(Clock::now() - a).count();
          t[{arm, tree.size()}].push_back(ms);
          std::vector<int> kept = s.path;
          if (arm == 1) { for (size_t i = 0; i < kept.size(); ++i) kept[i] = static_cast<int>(i); }
          commit_tree(*m, tree, layout, kept, pos, 0, 1);
          pos += static_cast<int>(kept.size());
          // the next root is the bonus token: not cached yet (decoded as next step's node 0)
        }
      }
  auto med = [](std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; };
  for (int arm : {0, 1}) {
    std::printf("%s:", arm ? "chains" : "trees ");
    for (auto& [key, v] : t) if (key.first == arm && v.size() >= 5) std::printf(" %d:%.2f(%zu)", key.second, med(v), v.size());
    std::printf("\n");
  }
}
