"""Drafting, verification and bookkeeping time per step of each arm's READER runs, over every
round under DIR (default /tmp/ab): what the trees' evaluation adds to a step.
usage: python3 step_parts.py [DIR]   (reads DIR/r*_<arm>/bench.json or bench.json.gz)"""
import glob
import gzip
import json
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "/tmp/ab"
arms = sorted({p.split("_", 1)[1].split("/")[0] for p in glob.glob(f"{root}/r*_*/")})
print("| arm | draft ms / step | verify ms / step | bookkeeping ms / step | steps |")
print("|---|---|---|---|---|")
for arm in arms:
    draft = verify = book = steps = 0
    for f in glob.glob(f"{root}/r*_{arm}/bench.json*"):
        opener = gzip.open if f.endswith(".gz") else open
        with opener(f, "rt") as fh:
            for r in json.load(fh)["runs"]:
                if r["method"] != "reader" or r["steps"] == 0:
                    continue
                draft += r["draft_ms"]
                verify += r["verify_ms"]
                book += r["bookkeeping_ms"]
                steps += r["steps"]
    print(f"| {arm} | {draft / steps:.3f} | {verify / steps:.3f} | {book / steps:.3f} | {steps} |")
