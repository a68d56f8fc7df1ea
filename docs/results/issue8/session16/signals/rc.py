import sys,collections
S=collections.defaultdict(lambda:[0,0,0.0])
for l in open(sys.argv[1]):
    if not l.startswith('TR'): continue
    _,src,d,conf,q,ok,rc=l.split(); src=int(src); d=int(d); q=float(q); ok=int(ok); rc=float(rc)
    if src==1: continue
    rb='unk' if rc<-0.5 else 'absent' if rc==0 else 'r<.5' if rc<.5 else 'r<.8' if rc<.8 else 'r>=.8'
    key=('d1' if d==1 else 'd2+', rb)
    a=S[key]; a[0]+=1; a[1]+=ok; a[2]+=q
for k in sorted(S): n,o,q=S[k]; print(k, n, 'acc %.2f'%(o/n), 'q %.2f'%(q/n), 'ratio %.2f'%((o/n)/(q/n)))
