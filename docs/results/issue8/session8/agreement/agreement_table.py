"""Acceptance of retrieval nodes by which source matched longest and whose own guess the token was.

    python3 agreement_table.py calibration_nodes.txt

Each line (logged by a throwaway build during `reader tune --prompts rag summarization gsm8k
mt_bench --prompt-offset 20 --n-prompts 5`, which verifies whole candidate trees):
AGREE source feature strength store mask ok q, where mask = 16 * (sources matched at the
longest length, bit 0 the trie, bit 1 the datastore) + (sources whose own top guess the token
was), ok = accepted.
"""
import sys
from collections import defaultdict

rows = defaultdict(lambda: [0, 0])
for line in open(sys.argv[1]):
    _, _src, _feature, _strength, _store, mask, ok, _q = line.split()
    mask, ok = int(mask), int(ok)
    matched, agreeing = mask >> 4, mask & 15
    if matched & 1 and matched & 2:
        key = ("both, equally long", "this text's own guess" if agreeing & 1 else "not this text's guess")
    elif matched & 1:
        key = ("this text alone", "also the datastore's guess" if agreeing & 2 else "not the datastore's guess")
    else:
        key = ("the datastore alone", "also this text's guess" if agreeing & 1 else "not this text's guess")
    rows[key][0] += 1
    rows[key][1] += ok
print("| longest match | drafted token is | tried | accepted |\n|---|---|---|---|")
for (who, what), (n, a) in sorted(rows.items()):
    print(f"| {who} | {what} | {n} | {a / n:.2f} |")
