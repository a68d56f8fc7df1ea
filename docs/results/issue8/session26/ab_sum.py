import json,sys,math,statistics,glob,collections
# usage: ab_sum.py PATTERN_ARM1 PATTERN_ARM2 ... ; prints per arm per set: sum AR decode / sum READER decode,
# and identical; at the end READER's own decode time summed (s)
for pat in sys.argv[1:]:
    tot=collections.defaultdict(lambda:[0.0,0.0]); steps=drafted=acc=gen=0; same=n=0; own=0.0
    for d in sorted(glob.glob(pat)):
        runs=json.load(open(f"{d}/bench.json"))["runs"]
        ar={(r["set"],r["id"]):r["decode_ms"] for r in runs if r["method"]=="ar"}
        for r in runs:
            if r["method"]!="reader": continue
            tot[r["set"]][0]+=ar[(r["set"],r["id"])]; tot[r["set"]][1]+=r["decode_ms"]
            steps+=r["steps"]; drafted+=r.get("drafted_tokens",0); gen+=r.get("generated_tokens",0)
            same+=r["identical_to_ar"]; n+=1; own+=r["decode_ms"]/1000
    gt=math.exp(statistics.mean(math.log(a/b) for a,b in tot.values()))
    print(f"{pat}: geomean(total) {gt:.3f} | drafted/step {drafted/steps:.2f} tok/step {gen/steps:.2f} | identical {same}/{n} | "+" ".join(f"{s[:6]} {a/b:.2f}" for s,(a,b) in sorted(tot.items()))+f" | READER decode {own:.1f} s")
