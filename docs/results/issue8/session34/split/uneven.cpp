// One KV stream per sequence: one decode where sequences 0-7 send these numbers of tokens
// (drafts + root), 256 cached tokens each; medians of 31 alternated rounds. Does an id with
// fewer tokens between longer ones split their pass, as split_equal's walk says?
// Build as session32/probe/HOWTO.md says, with -Idocs/results/issue8/session32/batch.
#include <cstdio>
#include "engine/batch_policy.h"
#include "streams.h"
int main(){
  EightStreams p;
  std::vector<std::vector<int>> layouts = {{1,1,1,1,1,1,1,1},{2,2,2,2,1,1,1,1},{2,1,2,1,2,1,2,1},
                                           {3,3,3,3,1,1,1,1},{3,1,3,1,3,1,3,1},{2,2,2,2,2,2,2,2}};
  std::vector<std::vector<double>> t(layouts.size());
  for (int r=0;r<34;++r) for (size_t c=0;c<layouts.size();++c){ p.decode(layouts[0]); double d=p.decode(layouts[c]); if(r>2) t[c].push_back(d);}
  for (size_t c=0;c<layouts.size();++c){
    printf("lengths");
    for (int l : layouts[c]) printf(" %d", l);
    // Passes as split_step_cost counts them, each priced 1.
    printf(": %.2f ms, %g passes\n", med(t[c]), split_step_cost(layouts[c], [](int,int){return 1.0;}));
  }
  return p.sink==-7;
}
