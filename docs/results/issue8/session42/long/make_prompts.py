#!/usr/bin/env python3
"""Long-context RAG prompts for the attention A/B: a CLAP NQ question (items 20-27, the
decision slice) with its passage among five others (the next rows' first passages), about
1,500-2,000 tokens.  make_prompts.py DATA_DIR OUT.jsonl"""
import json, sys
rows = [json.loads(l) for l in open(f"{sys.argv[1]}/rag/clapnq_dev_answerable.jsonl")]
with open(sys.argv[2], "w") as out:
    for i in range(20, 28):
        p = lambda r: r["passages"][0]["title"] + "\n" + r["passages"][0]["text"]
        others = [p(rows[(i + 10 * k) % len(rows)]) for k in range(1, 6)]
        docs = others[:3] + [p(rows[i])] + others[3:]
        text = "\n\n".join(f"Passage {n + 1}: {d}" for n, d in enumerate(docs))
        user = f"Answer the question using the passages.\n\n{text}\n\nQuestion: {rows[i]['input']}"
        out.write(json.dumps({"set": "rag_long", "id": rows[i]["id"], "prompt": user}) + "\n")
