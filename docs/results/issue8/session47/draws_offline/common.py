"""What ana.py and sigma.py share: gen.py's sampled generations (T = 0.8, kept in /tmp/c47)
and a row's softmax with each token's start in the id-order unit interval."""
import numpy as np

T = 0.8


def load_gens():
    gens = []
    for f in ["g0", "g1", "g2"]:
        gens += list(np.load(f"/tmp/c47/{f}.npy", allow_pickle=True))
    return gens


def stats(row):
    w = np.exp((row.astype(np.float64) - row.max()) / T)
    w /= w.sum()
    return w, np.cumsum(w) - w
