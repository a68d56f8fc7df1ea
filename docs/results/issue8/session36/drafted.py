# READER's verified drafts and committed tokens per step, and its summed decode time, per bench.json.
import json, sys
for f in sys.argv[1:]:
    runs = [r for r in json.load(open(f))['runs'] if r['method'] == 'reader']
    steps = sum(r['steps'] for r in runs)
    print(f, 'drafted/step %.2f  tokens/step %.2f  decode %.1f s' % (
        sum(r['drafted_tokens'] for r in runs) / steps,
        sum(r['generated_tokens'] for r in runs) / steps, sum(r['decode_ms'] for r in runs) / 1000))
