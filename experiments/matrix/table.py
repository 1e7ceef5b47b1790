#!/usr/bin/env python3
"""Prints the head-to-head table of a matrix run for docs/games/<game>.md.

Usage: experiments/matrix/table.py STEM   (from the repository root; STEM as matrix-apv)

From results/STEM/summary.csv, one row per pairing (score of A, the Elo interval by
seat-swapped pairs, games) and, from speed.csv, each agent's time per move.
"""
import csv
import sys


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def main():
    stem = sys.argv[1]
    pairings = {}
    for r in rows(f"results/{stem}/summary.csv"):
        if r["section"] == "pairing" and r["pairing"]:
            p = pairings.setdefault(r["pairing"], {"a": r["agent_a"], "b": r["agent_b"]})
            p[r["statistic"]] = (r["value"], r["low"], r["high"])
    speed = {r["agent"]: float(r["us_per_decision"]) / 1000 for r in rows(f"results/{stem}/speed.csv")}
    print("| A | B | score of A | Elo A−B by pairs [95%] | games |")
    print("|---|---|---|---|---|")
    for _, p in sorted(pairings.items(), key=lambda kv: int(kv[0])):
        elo = p["elo_pairs"]
        print(
            f"| `{p['a']}` ({speed[p['a']]:.0f} ms) | `{p['b']}` ({speed[p['b']]:.0f} ms) "
            f"| {float(p['score'][0]):.3f} | {elo[0]} [{elo[1]}, {elo[2]}] | {p['games'][0]} |"
        )


if __name__ == "__main__":
    main()
