import re,sys,collections
runs=collections.OrderedDict(); cur=None
for l in open(sys.argv[1]):
    m=re.match(r'## n=(\d+) iters=(\d+)',l)
    if m: cur=(int(m[1]),int(m[2])); runs[cur]={}; continue
    p=l.split('\t')
    if len(p)>=5 and not l.startswith('n='):
        runs[cur][p[0]]=[float(x) for x in p[1:5]]
    if l.startswith('n='): runs[cur]['_wall']=float(l.split()[2])
base=[v for k,v in runs.items() if k[0]==0][0]
rows=['MUL_MAT','FLASH_ATTN_EXT','RMS_NORM','ROPE','GLU','ADD','SET_ROWS','GET_ROWS']
print('| tokens | decode (wall, median) | matmul | attention | norms, rope, glu, add, set/get rows | waiting at barriers | of which in matmul |')
print('|---|---|---|---|---|---|---|')
for (n,it),d in runs.items():
    if n==0: continue
    f=lambda op,i: (d[op][i]-base.get(op,[0]*4)[i])/it/2.3  # Mcycles -> ms per decode
    comp=lambda op: (f(op,0)+f(op,2))/2
    wait=lambda op: (f(op,1)+f(op,3))/2
    other=sum(comp(o) for o in rows[2:])
    tw=sum(wait(o) for o in rows)
    tot=sum(comp(o) for o in rows)+tw
    print(f"| {n} | {d['_wall']:.2f} ms | {comp('MUL_MAT'):.2f} ms ({comp('MUL_MAT')/tot:.0%}) | {comp('FLASH_ATTN_EXT'):.2f} ms ({comp('FLASH_ATTN_EXT')/tot:.0%}) | {other:.2f} ms ({other/tot:.0%}) | {tw:.2f} ms ({tw/tot:.0%}) | {wait('MUL_MAT'):.2f} ms |")
