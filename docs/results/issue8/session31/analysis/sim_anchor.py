import sys, math
from collections import defaultdict
from trace_common import latest_copy
from replay_drafts import read_generations, generation_steps, judge, accepted_depth, best_path
path=sys.argv[1]; ANCH=int(sys.argv[2]) if len(sys.argv)>2 else 2; MINM=int(sys.argv[3]) if len(sys.argv)>3 else 3
gens=list(read_generations(path,'reader'))
def augment(ctx, step):
    par=list(step['parents']); tok=list(step['tokens']); src=list(step['sources']); q=list(step['q'])
    node=0; chain=[]; depth={0:0}
    for i in range(1,len(tok)+1): depth[i]=depth[par[i-1]]+1
    while True:
        kids=[i for i in range(1,len(tok)+1) if par[i-1]==node and src[i-1]==1]
        if not kids or depth[kids[0]]>ANCH: break
        node=kids[0]; chain.append(tok[node-1])
    new=[]
    if chain:
        m,cont=latest_copy(ctx+chain)
        if m>=MINM:
            p=node
            for j,t in enumerate(cont):
                kid=[i for i in range(1,len(tok)+1) if par[i-1]==p and tok[i-1]==t]
                if kid: p=kid[0]; new.append((p,m,j,False)); continue
                par.append(p); tok.append(t); src.append(9); q.append(0.0)
                p=len(tok); new.append((p,m,j,True))
    return {'parents':par,'tokens':tok,'sources':src,'q':q,'cost':step['cost'],'keep':step['keep']}, new
def key(m,j): return (min(m,8), min(j,3))
def train(gs):
    c=defaultdict(lambda:[0,0])
    for st,prompt,steps,commits in gs:
        for ctx,step,future in generation_steps(prompt,steps,commits):
            s2,new=augment(ctx,step)
            depth,matched=judge(s2,future)
            for (nd,m,j,isnew) in new:
                if matched[s2['parents'][nd-1]]:
                    c[key(m,j)][0]+=1; c[key(m,j)][1]+=matched[nd]
    return c
def evaluate(gs,c):
    tot=defaultdict(lambda:[0,0,0,0])
    for st,prompt,steps,commits in gs:
        for ctx,step,future in generation_steps(prompt,steps,commits):
            s2,new=augment(ctx,step)
            depth,matched=judge(s2,future)
            rec=set(step['keep']); t=tot[st]
            t[0]+=1+accepted_depth((depth,matched),rec); t[1]+=step['cost'][len(rec)-1]
            if any(x<0 for x in step['q']) or not new: keep=rec
            else:
                for (nd,m,j,isnew) in new:
                    n,a=c.get(key(m,j),(0,0)); r=(a+1)/(n+4)
                    s2['q'][nd-1]=max(s2['q'][nd-1], r)
                cost=list(step['cost']); 
                while len(cost)<len(s2['tokens'])+1: cost.append(cost[-1]+(cost[-1]-cost[-2]))
                keep=best_path(s2, lambda e,n: e/cost[n-1])
                cst=cost
            t[2]+=1+accepted_depth((depth,matched),keep); t[3]+=(step['cost']+[0]*99)[len(keep)-1] if len(keep)<=len(step['cost']) else cst[len(keep)-1]
    return tot
gs=gens; A=gs[0::2]; B=gs[1::2]
res=defaultdict(lambda:[0,0,0,0])
for tr,te in ((A,B),(B,A)):
    for st,t in evaluate(te,train(tr)).items():
        for j in range(4): res[st][j]+=t[j]
logs=[]
for st,t in res.items():
    r=(t[2]/t[3])/(t[0]/t[1]); logs.append(math.log(r)); print(f"{st:14s} {t[0]/t[1]:.3f} -> {t[2]/t[3]:.3f} ({r:.3f})")
print('geomean', math.exp(sum(logs)/len(logs)))
c=train(gs)
print({k:(v[0],round(v[1]/v[0],2)) for k,v in sorted(c.items()) if v[0]>=10})
