import collections,statistics as st,sys
groups=collections.defaultdict(list); method=None
for l in open(sys.argv[1]):
    p=l.split()
    if p and p[0]=='RUN': method=p[1]; continue
    if not p or p[0]!='STEP': continue
    _,lens,ms,pred,nb,gen=p
    L=[int(x) for x in lens.strip(',').split(',')]
    if any(x<=0 for x in L) or len(L)!=8: kind='other'
    else: kind='all1' if max(L)==1 else ('even' if len(set(L))==1 else 'uneven')
    groups[(method,kind)].append((float(ms),int(gen),sum(L)))
for k,v in sorted(groups.items()):
    T=sum(m for m,g,n in v); G=sum(g for m,g,n in v)
    print(k,len(v),'ms/step %.2f tokens/step %.2f tokens/ms %.3f verified/step %.1f'%(T/len(v),G/len(v),G/T,sum(n for m,g,n in v)/len(v)))
