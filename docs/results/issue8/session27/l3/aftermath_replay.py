# aftermath_replay.py TRACE: what pricing the aftermath would gain, judged by a cost that includes it:
# a step of n tokens costs c(n) + beta (c(n) - 1) in one-token decodes.
import sys, math
import os
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../../../../scripts'))
import replay_drafts as R
from collections import defaultdict
trace = sys.argv[1]
for beta_true in (0.0, 0.15, 0.3, 0.5):
  for beta_price in (0.0, 0.15, 0.3, 0.5):
    tot = defaultdict(lambda: [0.0, 0.0, 0.0, 0.0])
    for set_name, prompt, steps, commits in R.read_generations(trace, 'reader'):
        for _, step, future in R.generation_steps(prompt, steps, commits):
            judged = R.judge(step, future)
            cost = step['cost']
            weighed = all(q >= 0 for q in step['q'])
            rec = set(step['keep'])
            cp = [c + beta_price * (c - 1) for c in cost]
            ct = [c + beta_true * (c - 1) for c in cost]
            ch = R.best_path(step, lambda e, n: e / cp[n - 1]) if weighed else rec
            base = R.best_path(step, lambda e, n: e / cost[n - 1]) if weighed else rec
            t = tot[set_name]
            t[0] += 1 + R.accepted_depth(judged, base); t[1] += ct[len(base) - 1]
            t[2] += 1 + R.accepted_depth(judged, ch); t[3] += ct[len(ch) - 1]
    logs = [math.log((t[2] / t[3]) / (t[0] / t[1])) for t in tot.values()]
    print(f"true beta {beta_true:.2f} priced {beta_price:.2f}: geomean ratio {math.exp(sum(logs)/len(logs)):.4f}  " +
          " ".join(f"{s[:5]}:{(t[2]/t[3])/(t[0]/t[1]):.3f}" for s, t in tot.items()))
