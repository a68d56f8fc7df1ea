"""Shared by session 37's replay scripts: prints each set's replayed tokens per unit of cost of
a variant over the recorded policy's, and their geometric mean."""
import math


def print_ratios(title, totals):
    """`totals`: set -> ((tokens, cost) as recorded, (tokens, cost) of the variant); no title
    line where `title` is empty."""
    if title:
        print(title)
    logs = []
    for set_name, (base, variant) in totals.items():
        r = (variant[0] / variant[1]) / (base[0] / base[1])
        logs.append(math.log(r))
        print(f"  {set_name:14s} {r:.3f}")
    print(f"  {'geomean':14s} {math.exp(sum(logs) / len(logs)):.3f}")
