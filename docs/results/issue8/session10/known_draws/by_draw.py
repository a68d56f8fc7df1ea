"""Acceptance of tried draft nodes by their position's uniform U (sampled runs, T = 0.8).

    python3 by_draw.py tried_nodes_seed1.txt tried_nodes_seed2.txt

Each line: DRAW source feature strength agreement q_est q_sampled_prior q_greedy_prior U
accepted position seed (source 1 = speculator, 2 = widening, 3 = deepening). Also checks the
position mapping: U recomputed at position + shift must separate best at shift 0.
"""
import sys

M = (1 << 64) - 1


def mix64(x):
    x = (x + 0x9E3779B97F4A7C15) & M
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M
    return x ^ (x >> 31)


def uniform(seed, pos):  # sampling.cpp's position_uniform
    return (mix64(mix64(seed) ^ ((pos * 0xD1342543DE82EF95) & M)) >> 11) * 2.0**-53


def main():
    rows = []
    for path in sys.argv[1:]:
        for line in open(path):
            f = line.split()
            rows.append({"source": int(f[1]), "q": float(f[5]), "u": float(f[8]),
                         "ok": int(f[9]), "pos": int(f[10]), "seed": int(f[11])})

    groups = [("speculator", lambda r: r["source"] == 1), ("retrieval", lambda r: r["source"] != 1)]
    print("| U | " + " | ".join(f"{g}: tried, accepted, estimate" for g, _ in groups) + " |")
    print("|---|" + "---|" * len(groups))
    for lo, hi in [(0, .1), (.1, .3), (.3, .5), (.5, .7), (.7, .9), (.9, .98), (.98, 1)]:
        cells = []
        for _, sel in groups:
            b = [r for r in rows if sel(r) and lo <= r["u"] < hi]
            cells.append(f"{len(b)}, {sum(r['ok'] for r in b) / len(b):.2f}, "
                         f"{sum(r['q'] for r in b) / len(b):.2f}" if b else "-")
        print(f"| {lo:.2f}-{hi:.2f} | " + " | ".join(cells) + " |")
    print()
    for shift in (-2, -1, 0, 1, 2):
        hi = [r for r in rows if uniform(r["seed"], r["pos"] + shift) > 0.9]
        lo = [r for r in rows if uniform(r["seed"], r["pos"] + shift) < 0.3]
        print(f"position shift {shift:+d}: accepted {sum(r['ok'] for r in lo) / len(lo):.3f} "
              f"where U < 0.3, {sum(r['ok'] for r in hi) / len(hi):.3f} where U > 0.9")


if __name__ == "__main__":
    main()
