import sys, math
from collections import defaultdict
import os; sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../../../../scripts'))
from replay_drafts import read_generations, generation_steps, judge, accepted_depth, best_path
path=sys.argv[1]; RELATIVE=len(sys.argv)>2 and sys.argv[2]=='relative'
gens=list(read_generations(path,'reader'))
def state(step, i, depth):
    par=step['parents']; src=step['sources']; tok=step['tokens']
    p=par[i-1]
    sib=[j for j in range(1,len(src)+1) if par[j-1]==p and src[j-1]==1]
    return 'none' if not sib else 'differs'
def cells(gs):
    c=defaultdict(lambda:[0,0.0])
    for st,prompt,steps,commits in gs:
        for ctx,step,future in generation_steps(prompt,steps,commits):
            if any(x<0 for x in step['q']): continue
            depth,matched=judge(step,future)
            for i in range(1,len(depth)):
                if step['sources'][i-1]==1 or not matched[step['parents'][i-1]]: continue
                k=(step['sources'][i-1], state(step,i,depth), min(int(step['q'][i-1]*5),4), min(depth[i],2))
                c[k][0]+=1; c[k][1]+=matched[i]
    return c
def evaluate(gs, c):
    tot=defaultdict(lambda:[0,0,0,0])
    for st,prompt,steps,commits in gs:
        for ctx,step,future in generation_steps(prompt,steps,commits):
            depth,matched=judge(step,future); cost=step['cost']
            rec=set(step['keep'])
            t=tot[st]; t[0]+=1+accepted_depth((depth,matched),rec); t[1]+=cost[len(rec)-1]
            if any(x<0 for x in step['q']): keep=rec
            else:
                q=list(step['q'])
                for i in range(1,len(depth)):
                    if step['sources'][i-1]==1: continue
                    k=(step['sources'][i-1], state(step,i,depth), min(int(q[i-1]*5),4), min(depth[i],2))
                    n,a=c.get(k,(0,0))
                    if RELATIVE:  # scale q by the state's rate over both states' (same cell)
                        n2=sum(c.get((k[0],s_,k[2],k[3]),(0,0))[0] for s_ in ('none','differs'))
                        a2=sum(c.get((k[0],s_,k[2],k[3]),(0,0))[1] for s_ in ('none','differs'))
                        if n>=10 and a2>0:
                            q[i-1]=min(0.99,q[i-1]*((a+1)/(n+2))/((a2+1)/(n2+2)))
                    else:  # shrink the empirical rate toward q
                        q[i-1]=(a+10*q[i-1])/(n+10)
                s2=dict(step); s2['q']=q
                keep=best_path(s2, lambda e,n: e/cost[n-1])
            t[2]+=1+accepted_depth((depth,matched),keep); t[3]+=cost[len(keep)-1]
    return tot
A=[g for k,g in enumerate(gens) if k%2==0]; B=[g for k,g in enumerate(gens) if k%2==1]
res=defaultdict(lambda:[0,0,0,0])
for train,test in ((A,B),(B,A)):
    for st,t in evaluate(test,cells(train)).items():
        for j in range(4): res[st][j]+=t[j]
logs=[]
for st,t in res.items():
    r=(t[2]/t[3])/(t[0]/t[1]); logs.append(math.log(r))
    print(f"{st:14s} recorded {t[0]/t[1]:.3f} corrected {t[2]/t[3]:.3f} ratio {r:.3f}")
print('geomean', math.exp(sum(logs)/len(logs)))
