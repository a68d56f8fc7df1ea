# Build code_edit items (prompt = user text) from HumanEval and bench.json AR outputs.
import json, gzip, sys
edits = ["Add type hints to every variable and a docstring with Args and Returns sections.",
 "Rename the local variables to longer, more descriptive names.",
 "Convert the loops to list comprehensions or generator expressions where possible.",
 "Add a short comment above every statement of the body explaining what it does.",
 "Add input validation at the start of the function that raises ValueError on invalid arguments."]
rows = [json.loads(l) for l in gzip.open('/work/shared/data/humaneval/HumanEval.jsonl.gz', 'rt')]
prompts = {}
for i, r in enumerate(rows):
    key = ["types","rename","comprehension","comments","validate"][i % 5]
    ctx = r['prompt'] + r['canonical_solution']
    prompts[r['task_id'] + '/' + key] = ("Here is a Python function:\n\n```python\n" + ctx + "```\n\n" + edits[i % 5] +
        " Keep everything else as it is, and return the whole function in one Python code block.")
d = json.load(open(sys.argv[1]))
out = [{'id': r['id'], 'prompt': prompts[r['id']], 'output': r['text']} for r in d['runs']
       if r['set'] == 'code_edit' and r['method'] == 'ar']
json.dump(out, open(sys.argv[2], 'w'))
print(len(out))
