#!/usr/bin/env python3
"""Prints the ladder table of one game for docs/games/<game>.md from the ladder runs.

Usage: experiments/ladder/table.py GAME   (from the repository root)

Reads the summary.csv of the run that measured each rung against the one below (STEPS:
games, score, the Elo interval by pairs, draws) and its speed.csv (the time each agent
took per move; a run plays two games at a time, one per core).
"""
import csv
import glob
import os
import re
import sys


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def timing(stem, label):
    """ms per move and s per game (both seats playing like this) of the agent labelled
    `label` in the run `stem`, from its speed.csv: its own thinking time per decision,
    and twice its thinking time per game."""
    for r in rows(f"results/{stem}/speed.csv"):
        if r["agent"] == label:
            per_game = int(r["time_us"]) / int(r["games"]) / 1e6
            return f"{float(r['us_per_decision']) / 1000:.2f} | {2 * per_game:.2f}"
    return "| "


# The run that measures each rung above the first: results/<stem> plays rung k (agent A)
# against rung k-1 (agent B). Most are ladder-<game>-<k>; Invector's depth 2 lost to depth
# 1 (ladder-invector-3), so its rungs skip it. A learned rung's run is the match of its
# network against the linear evaluator, networks-<game> (experiments/networks/).
STEPS = {
    "invector": [
        "ladder-invector-2",
        "ladder-invector-d4-over-d1",
        "ladder-invector-5",
        "ladder-invector-6",
        "networks-invector",
    ],
    "connect4": [f"ladder-connect4-{k}" for k in range(2, 7)],
    "pig": [f"ladder-pig-{k}" for k in range(2, 5)],
    "apv": [f"ladder-apv-{k}" for k in range(2, 6)],
    "romgon": [f"ladder-romgon-{k}" for k in range(2, 7)],
    "threewill": [f"ladder-threewill-{k}" for k in range(2, 5)],
    "hexstrat": [f"ladder-hexstrat-{k}" for k in range(2, 6)],
}


def main():
    game = sys.argv[1]
    steps = [step_of(stem) for stem in STEPS[game]]

    print(
        "| level | agent | ms per move | s per game | score against the level below "
        "| Elo by pairs [95%] | games | draws | run |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    first = steps[0][0][1]
    print(f"| 1 | `{first}` | {timing(steps[0][2], first)} | | | | | |")
    for k, ((label, _), st, stem) in enumerate(steps, start=2):
        # A label leaves out the default depth; the table shows the spec as the ladder has it.
        spec = "ab:depth=4" if label == "ab" else label
        games = int(st["games"][0])
        draws = int(st["draws"][0])
        elo = st["elo_pairs"]
        print(
            f"| {k} | `{spec}` | {timing(stem, label)} | {float(st['score'][0]):.3f} "
            f"| {elo[0]} [{elo[1]}, {elo[2]}] | {games} | {100 * draws / games:.0f}% "
            f"| [{stem}](../../experiments/{experiment(stem)}) |"
        )


def experiment(stem):
    """The experiment file of the run `stem`, under experiments/."""
    if stem.startswith("networks-"):
        return f"networks/{stem.removeprefix('networks-')}.toml"
    return f"ladder/{stem}.toml"


def step_of(stem):
    agents, stats = step_stats(f"results/{stem}/summary.csv")
    return agents, stats, stem


def step_stats(path):
    stats = {}
    agents = None
    for r in rows(path):
        if r["section"] == "pairing" and r["pairing"] == "0":
            stats[r["statistic"]] = (r["value"], r["low"], r["high"])
            agents = (r["agent_a"], r["agent_b"])
    return agents, stats


if __name__ == "__main__":
    main()
