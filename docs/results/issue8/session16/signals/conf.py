import sys,collections
S=collections.defaultdict(lambda:[0,0,0.0])
for l in open(sys.argv[1]):
    if not l.startswith('TR'): continue
    _,src,d,conf,q,ok=l.split()[:6]; src=int(src); d=int(d); conf=float(conf); q=float(q); ok=int(ok)
    cb='na' if conf<0 else ('a<.5' if conf<.5 else 'b<.8' if conf<.8 else 'c<.95' if conf<.95 else 'd>=.95')
    key=('spec' if src==1 else 'retr', 'd1' if d==1 else 'd2+', cb)
    a=S[key]; a[0]+=1; a[1]+=ok; a[2]+=q
for k in sorted(S): n,o,q=S[k]; print(k, n, 'acc %.2f'%(o/n), 'q %.2f'%(q/n), 'ratio %.2f'%((o/n)/(q/n)))
