# Does the amount of evidence (how many earlier occurrences of the matched suffix) predict
# acceptance beyond match length and share? Trie-only counts over prompt + output so far.
import json, gzip, sys, collections
from llama_cpp import Llama
sys.path.insert(0, '/tmp/sim')
from sim import counts_next
D = '/work/shared/data'
def rows(p): return [json.loads(l) for l in open(p)]
clap = rows(D + '/rag/clapnq_dev_answerable.jsonl')
def passage(r): p = r['passages'][0]; return p.get('title', '') + '\n' + p.get('text', '')
he = [json.loads(l) for l in gzip.open(D + '/humaneval/HumanEval.jsonl.gz', 'rt')]
gsm = rows(D + '/gsm8k/test.jsonl')
mt = rows(D + '/mt_bench/question.jsonl')
edits = ["Add type hints to every variable and a docstring with Args and Returns sections.",
 "Rename the local variables to longer, more descriptive names.",
 "Convert the loops to list comprehensions or generator expressions where possible.",
 "Add a short comment above every statement of the body explaining what it does.",
 "Add input validation at the start of the function that raises ValueError on invalid arguments."]
keys = ["types","rename","comprehension","comments","validate"]
prompts = {}
for r in clap:
    prompts[('rag', r['id'])] = "Answer the question using the passage.\n\nPassage: " + passage(r) + "\n\nQuestion: " + r.get('input', '')
    prompts[('summarization', r['id'] + '/summary')] = "Summarize the following passage in a few sentences.\n\nPassage: " + passage(r)
for i, r in enumerate(he):
    prompts[('humaneval', r['task_id'])] = "Complete the following Python function.\n\n```python\n" + r['prompt'] + "```"
    ctx = r['prompt'] + r['canonical_solution']
    prompts[('code_edit', r['task_id'] + '/' + keys[i % 5])] = "Here is a Python function:\n\n```python\n" + ctx + "```\n\n" + edits[i % 5] + " Keep everything else as it is, and return the whole function in one Python code block."
for i, r in enumerate(gsm):
    prompts[('gsm8k', 'gsm8k/%d' % i)] = r['question'] + "\nSolve it step by step."
for r in mt:
    prompts[('mt_bench', 'mt_bench/%d' % r['question_id'])] = r['turns'][0]
llm = Llama(model_path=sys.argv[1], vocab_only=True, verbose=False)
tok = lambda s: llm.tokenize(s.encode(), add_bos=False, special=False)
stats = collections.defaultdict(lambda: [0, 0])
for f in sys.argv[2:]:
    for r in json.load(open(f))['runs']:
        if r['method'] != 'ar' or (r['set'], r['id']) not in prompts: continue
        P = tok(prompts[(r['set'], r['id'])]); O = tok(r['text'])
        for t in range(len(O)):
            top, L, cnt, tot = counts_next(P + O[:t])
            if top is None: continue
            share = cnt / tot
            sb = 0 if share < 0.3 else 1 if share < 0.6 else 2 if share < 0.9 else 3
            lb = 'L1-2' if L <= 2 else 'L3-4' if L <= 4 else 'L5+'
            ev = 'n=1' if tot == 1 else 'n=2' if tot == 2 else 'n3+'
            ok = top == O[t]
            for k in ((r['set'], lb, sb, ev), ('ALL', lb, sb, ev)):
                stats[k][0] += ok; stats[k][1] += 1
for k in sorted(stats, key=str):
    if k[0] != 'ALL': continue
    a, n = stats[k]
    print(k, '%.2f' % (a / n), n)
