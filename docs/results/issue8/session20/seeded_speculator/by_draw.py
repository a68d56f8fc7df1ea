import sys
rows=[l.split() for f in sys.argv[1:] for l in open(f)]
rows=[(int(a[1]),int(a[2]),float(a[3]),float(a[4]),int(a[5])) for a in rows]
edges=[0,.5,.8,.9,.95,.98,1.0]
for name,srcs in (('spec',(1,)),('retr',(2,3))):
  for qb in [(0,.4),(.4,.7),(.7,.9),(.9,1.01)]:
    line=[]
    for lo,hi in zip(edges,edges[1:]):
        sel=[r for r in rows if r[0] in srcs and qb[0]<=r[2]<qb[1] and lo<=r[3]<hi]
        line.append('%4d %.2f'%(len(sel),sum(r[4] for r in sel)/max(1,len(sel))))
    print(name,'q %.1f-%.1f: '%qb + ' | '.join(line))
