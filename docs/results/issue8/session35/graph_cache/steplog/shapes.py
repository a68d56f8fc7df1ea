import collections,statistics as st,sys
lines=open(sys.argv[1]).read().splitlines()
runs,cur=[],[]
for l in lines:
    if l.startswith('STEP'): cur.append(l.split())
    elif 'B=' in l and cur: runs.append((l.split()[-1],cur)); cur=[]
G=collections.defaultdict(list)
for m,steps in runs:
    prev=None
    for p in steps:
        lens=[int(x) for x in p[1].strip(',').split(',')]
        full=len(lens)==8 and all(x>0 for x in lens)
        kind=None
        if full: kind='all1' if max(lens)==1 else ('all2' if set(lens)=={2} else 'other')
        if kind and prev: G[(m,kind,'after '+prev)].append(float(p[2]))
        prev=kind if kind else 'nonfull'
for k,v in sorted(G.items()): print(k,len(v),'median %.2f mean %.2f'%(st.median(v),st.mean(v)))
