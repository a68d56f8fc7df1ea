"""Reading `reader bench` output for the issue 8 scripts: a run directory holds bench.json, or
bench.json.gz once committed (results are stored compressed)."""
import gzip
import json
import os


def load_bench(run_dir):
    """The bench.json of `run_dir`, plain or gzipped."""
    path = os.path.join(run_dir, "bench.json")
    if os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    with gzip.open(path + ".gz") as f:
        return json.load(f)
