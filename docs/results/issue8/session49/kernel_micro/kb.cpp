// Microbenchmark: the shipped Q8_0 AVX512-VNNI tile (transpose on the fly) vs pre-transposed weights.
#include <immintrin.h>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>
#include <thread>
#ifndef NT
#define NT 1
#endif
#include <algorithm>
#ifndef OPF
#define OPF 0
#endif
#ifndef PF
#define PF 2
#endif
struct blk { uint16_t d; int8_t qs[32]; };
static inline float unhalf(uint16_t h){ return _cvtsh_ss(h); }
static inline __m256i load(const blk* b){ return _mm256_loadu_si256((const __m256i*)b->qs); }
struct Mat { int64_t m, k; std::vector<blk> A; std::vector<uint8_t> T; std::vector<float> D; };
// pre-transposed: per 16-row tile and block: 8 x 64 bytes (w[0..7]) and 16 float scales
static void pretranspose(Mat& M){
  int64_t tiles=M.m/16; M.T.resize(tiles*M.k*512); M.D.resize(tiles*M.k*16);
  for(int64_t t=0;t<tiles;++t) for(int64_t l=0;l<M.k;++l){
    uint8_t* dst=&M.T[(t*M.k+l)*512];
    for(int q=0;q<8;++q) for(int r=0;r<16;++r) for(int b=0;b<4;++b)
      dst[q*64+r*4+b]=(uint8_t)(M.A[(t*16+r)*M.k+l].qs[4*q+b]+128);
    for(int r=0;r<16;++r) M.D[(t*M.k+l)*16+r]=unhalf(M.A[(t*16+r)*M.k+l].d);
  }
}
// Both layouts' per-block work once the 16 rows sit one per 32-bit lane in w[0..7]: every column's
// exact int32 dot product (two chains of vpdpbusd), scaled and added in block order.
template<int RN> static inline void columns(const __m512i* w,__m512 da,const blk* B,int64_t ldb,const int32_t* corr,const float* db,int64_t k,int64_t l,__m512* acc){
    for(int j=0;j<RN;++j){
      const int8_t* bq=B[ldb*j+l].qs;
      __m512i s0=_mm512_set1_epi32(corr[j*k+l]), s1=_mm512_setzero_si512();
      for(int q=0;q<8;q+=2){ int32_t b0,b1; memcpy(&b0,bq+4*q,4); memcpy(&b1,bq+4*q+4,4);
        s0=_mm512_dpbusd_epi32(s0,w[q],_mm512_set1_epi32(b0)); s1=_mm512_dpbusd_epi32(s1,w[q+1],_mm512_set1_epi32(b1)); }
      const __m512 scale=_mm512_mul_ps(da,_mm512_set1_ps(db[j*k+l]));
      acc[j]=_mm512_fmadd_ps(scale,_mm512_cvtepi32_ps(_mm512_add_epi32(s0,s1)),acc[j]);
    }
}
template<int RN> static void tile_orig(const Mat& M,int64_t ii,const blk* B,int64_t ldb,const int32_t* corr,const float* db,float* C,int64_t ldc){
  const blk* A=M.A.data(); int64_t lda=M.k, k=M.k;
  const __m512i flip=_mm512_set1_epi8((char)0x80);
  const __m512i lo=_mm512_set_epi64(13,12,5,4,9,8,1,0), hi=_mm512_set_epi64(15,14,7,6,11,10,3,2);
  __m512 acc[RN]; for(int j=0;j<RN;++j) acc[j]=_mm512_setzero_ps();
  for(int64_t l=0;l<k;++l){
    const blk* a=A+lda*ii+l;
    const char* next=(const char*)(A+lda*(ii+16))+l*16*(int64_t)sizeof(blk);
    if(OPF==0){ for(int c=0;c<9;++c) _mm_prefetch(next+64*c,_MM_HINT_T0); }
    else { for(int r=0;r<16;++r) _mm_prefetch((const char*)(a+lda*r+OPF),_MM_HINT_T0); }
    alignas(32) uint16_t d16[16]; for(int r=0;r<16;++r) d16[r]=a[lda*r].d;
    const __m512 da=_mm512_cvtph_ps(_mm256_load_si256((const __m256i*)d16));
    __m512i z[8],t[8],u[8],w[8];
    for(int p=0;p<8;++p) z[p]=_mm512_xor_si512(flip,_mm512_inserti64x4(_mm512_castsi256_si512(load(a+lda*p)),load(a+lda*(p+8)),1));
    for(int p=0;p<4;++p){ t[2*p]=_mm512_unpacklo_epi32(z[2*p],z[2*p+1]); t[2*p+1]=_mm512_unpackhi_epi32(z[2*p],z[2*p+1]); }
    for(int h=0;h<2;++h){ u[4*h]=_mm512_unpacklo_epi64(t[4*h],t[4*h+2]); u[4*h+1]=_mm512_unpackhi_epi64(t[4*h],t[4*h+2]); u[4*h+2]=_mm512_unpacklo_epi64(t[4*h+1],t[4*h+3]); u[4*h+3]=_mm512_unpackhi_epi64(t[4*h+1],t[4*h+3]); }
    for(int q=0;q<4;++q){ w[q]=_mm512_permutex2var_epi64(u[q],lo,u[q+4]); w[q+4]=_mm512_permutex2var_epi64(u[q],hi,u[q+4]); }
    columns<RN>(w,da,B,ldb,corr,db,k,l,acc);
  }
  for(int j=0;j<RN;++j) _mm512_storeu_ps(C+ldc*j+ii,acc[j]);
}
template<int RN> static void tile_pre(const Mat& M,int64_t ii,const blk* B,int64_t ldb,const int32_t* corr,const float* db,float* C,int64_t ldc){
  int64_t k=M.k; const uint8_t* T=&M.T[(ii/16)*k*512]; const float* D=&M.D[(ii/16)*k*16];
  __m512 acc[RN]; for(int j=0;j<RN;++j) acc[j]=_mm512_setzero_ps();
  for(int64_t l=0;l<k;++l){
    const uint8_t* tw=T+l*512;
    for(int c=0;c<8;++c) _mm_prefetch((const char*)(tw+512*PF+64*c),_MM_HINT_T0);
    _mm_prefetch((const char*)(D+(l+PF)*16),_MM_HINT_T0);
    const __m512 da=_mm512_loadu_ps(D+l*16);
    __m512i w[8]; for(int q=0;q<8;++q) w[q]=_mm512_load_si512((const void*)(tw+64*q));
    columns<RN>(w,da,B,ldb,corr,db,k,l,acc);
  }
  for(int j=0;j<RN;++j) _mm512_storeu_ps(C+ldc*j+ii,acc[j]);
}
static thread_local int TH=0;
template<bool PRE,int RN> static void mm(const Mat& M,const std::vector<blk>& B,const std::vector<int32_t>& corr,const std::vector<float>& db,std::vector<float>& C){
  int64_t tiles=M.m/16; 
  auto work=[&](int th){ for(int64_t t=th*tiles/NT;t<(th+1)*tiles/NT;++t){ int64_t ii=t*16; if(PRE) tile_pre<RN>(M,ii,B.data(),M.k,corr.data(),db.data(),C.data(),M.m); else tile_orig<RN>(M,ii,B.data(),M.k,corr.data(),db.data(),C.data(),M.m);}};
  work(TH);
}
int main(){
  std::mt19937 rng(1);
  // SmolLM2-135M shapes (rows m = output dim, k = input dim / 32), 30 layers + lm_head
  std::vector<Mat> mats;
  auto add=[&](int64_t m,int64_t kin){ Mat M; M.m=m; M.k=kin/32; M.A.resize(m*M.k); for(auto& b:M.A){ b.d=_cvtss_sh(0.01f*(rng()%100+1),0); for(auto& q:b.qs) q=(int8_t)(rng()%256-128);} pretranspose(M); mats.push_back(std::move(M)); };
  for(int L=0;L<30;++L){ add(576,576); add(192,576); add(192,576); add(576,576); add(1536,576); add(1536,576); add(576,1536);} add(49152,576);
  for(int n: {1,2,4,8}){
    double best[2]={1e9,1e9}; std::vector<float> C(49152*16);
    std::vector<std::vector<blk>> Bs; std::vector<std::vector<int32_t>> Cs; std::vector<std::vector<float>> Ds;
    for(auto& M:mats){ std::vector<blk> B(n*M.k); std::vector<int32_t> corr(n*M.k); std::vector<float> db(n*M.k);
        for(size_t i=0;i<B.size();++i){ for(auto& q:B[i].qs) q=(int8_t)(i*7%200-100); B[i].d=0x3c00; int s=0; for(auto q:B[i].qs) s+=q; corr[i]=-128*s; db[i]=1.f; }
        Bs.push_back(B); Cs.push_back(corr); Ds.push_back(db);}
    for(int rep=0;rep<15;++rep) for(int pre=0;pre<2;++pre){
      auto t0=std::chrono::steady_clock::now();
      auto body=[&](int th){ TH=th; std::vector<float> Cl(49152*16);
      for(size_t mi=0;mi<mats.size();++mi){ auto& M=mats[mi]; auto& B=Bs[mi]; auto& corr=Cs[mi]; auto& db=Ds[mi];
        #define RUN(N) case N: if(pre) mm<true,N>(M,B,corr,db,Cl); else mm<false,N>(M,B,corr,db,Cl); break;
        switch(n){ RUN(1) RUN(2) RUN(4) RUN(8) }
      }};
      if(NT==1) body(0); else { std::thread t1(body,1); body(0); t1.join(); }
      double ms=std::chrono::duration<double,std::milli>(std::chrono::steady_clock::now()-t0).count();
      best[pre]=std::min(best[pre],ms);
    }
    printf("n=%d  orig %.2f ms  pretransposed %.2f ms  ratio %.2f\n",n,best[0],best[1],best[0]/best[1]);
  }
  // bitwise check on one matrix, n=4
  { auto& M=mats[4]; int n=4; std::vector<blk> B(n*M.k); std::vector<int32_t> corr(n*M.k); std::vector<float> db(n*M.k);
    for(size_t i=0;i<B.size();++i){ for(auto& q:B[i].qs) q=(int8_t)(rng()%256-128); B[i].d=_cvtss_sh(0.02f,0); int s=0; for(auto q:B[i].qs) s+=q; corr[i]=-128*s; db[i]=unhalf(B[i].d);} 
    std::vector<float> C1(M.m*n),C2(M.m*n); mm<false,4>(M,B,corr,db,C1); mm<true,4>(M,B,corr,db,C2); printf("bitwise equal: %d\n", memcmp(C1.data(),C2.data(),C1.size()*4)==0); }
}
