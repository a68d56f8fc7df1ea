#!/usr/bin/env python3
"""The (prompt, output) of every READER generation in a trace, one JSON line each, for probs.cpp.
    dump_seqs.py TRACE.jsonl[.gz] OUT.jsonl"""
import sys, json, os
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../../../scripts")); import replay_drafts as R
out = open(sys.argv[2], "w")
for set_name, prompt, steps, commits in R.read_generations(sys.argv[1], "reader"):
    output = [t for c in commits for t in c]
    out.write(json.dumps({"set": set_name, "prompt": prompt, "output": output}) + "\n")
