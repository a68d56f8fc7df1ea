// One KV stream per sequence (as the batched engine keeps them): a decode of one token for
// each of 5 sequences whose ids are consecutive (0-4, or 3-7 since session 33) or have gaps
// (0, 2, 3, 5, 7), and of 2 tokens each; medians of rounds, alternated.
#include <cstdio>
#include "streams.h"
int main(){
  EightStreams p;
  std::vector<std::vector<int>> sets = {{0,1,2,3,4},{0,2,3,5,7},{0,1,2,3,4,5,6,7},{3,4,5,6,7}};
  auto run=[&](const std::vector<int>& seqs, int k){
    std::vector<int> lengths(8, 0);
    for (int s : seqs) lengths[s] = k;
    return p.decode(lengths); };
  std::vector<std::vector<double>> t(8);
  for (int r=0;r<40;++r) for (int c=0;c<8;++c){ for(int w=0;w<3;++w) run(sets[2],1); double d=run(sets[c/2], 1 + c%2); if(r>2) t[c].push_back(d);} 
  const char* names[]={"0-4","0,2,3,5,7","0-7","3-7"};
  for (int c=0;c<8;++c) printf("ids %-10s x %d token(s): %.2f ms\n", names[c/2], 1+c%2, med(t[c]));
  return p.sink==-7;
}
