#!/usr/bin/env python3
"""Long-context RAG prompts for the attention A/B: a CLAP NQ question (items 20-27 by default,
the decision slice) with its passage among five others (rows 10, 20, ... further on), 1,100-1,650
prompt tokens.  make_prompts.py DATA_DIR OUT.jsonl [FIRST [COUNT]]"""
import json, sys
rows = [json.loads(l) for l in open(f"{sys.argv[1]}/rag/clapnq_dev_answerable.jsonl")]
with open(sys.argv[2], "w") as out:
    first = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    count = int(sys.argv[4]) if len(sys.argv) > 4 else 8
    for i in range(first, first + count):
        p = lambda r: r["passages"][0]["title"] + "\n" + r["passages"][0]["text"]
        others = [p(rows[(i + 10 * k) % len(rows)]) for k in range(1, 6)]
        docs = others[:3] + [p(rows[i])] + others[3:]
        text = "\n\n".join(f"Passage {n + 1}: {d}" for n, d in enumerate(docs))
        user = f"Answer the question using the passages.\n\n{text}\n\nQuestion: {rows[i]['input']}"
        out.write(json.dumps({"set": "rag_long", "id": rows[i]["id"], "prompt": user}) + "\n")
