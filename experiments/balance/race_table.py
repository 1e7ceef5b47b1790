#!/usr/bin/env python3
"""Prints the table of a race (`agon balance --search`) as docs/balance.md shows it.

Usage: python3 experiments/balance/race_table.py <game>/<race>   (e.g. pig/search-bonus)

Reads results/balance/<game>/<race>/study.csv and search.csv and prints a heading line
(the base game and the level) and a blank line, then a markdown table with one row per
candidate: its picks, its games, seat 0's score with the race's interval, seat 0's
share of the decisive games, draws (and those at the length cap), the mean length, the
exact score where the level's agent is exact, and where it finished; then one row per
check of the fairest candidate at another level (95% intervals).
"""

import csv
import os
import sys


def main():
    race = sys.argv[1]
    folder = os.path.join("results", "balance", race)
    with open(os.path.join(folder, "study.csv"), newline="") as f:
        identity = list(csv.reader(f))[1:]
    values = {}
    for key, value in identity:
        values.setdefault(key, []).append(value)
    with open(os.path.join(folder, "search.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    searched = [s.split("=")[0] for s in values["search"]]
    agent = values["agent"][0].split("=", 1)[1]
    level = values["agent"][0].split("=", 1)[0]
    confidence = float(rows[0]["confidence"])
    print(
        f"`{values['game'][0]}` raced at {level} (`{agent}`), {values['round'][0]} games a "
        f"round, intervals at {100 * confidence:.3f}%"
    )
    print()
    print(
        "| candidate | "
        + " | ".join(searched)
        + " | games | seat 0 score % [interval] | seat 0 wins, % of decisive | draws % (by the cap)"
        " | turns, mean | exact seat 0 score % | standing |"
    )
    print("|" + "---|" * (len(searched) + 8))
    last = {}
    for row in rows:
        if row["round"] != "check":
            last[row["candidate"]] = row
    tried = [s.split("=", 1)[1].split(",") for s in values["search"]]
    for name, row in sorted(last.items()):
        # Candidate c<i> is combination i - 1, the last knob the fastest digit.
        rest, picks = int(name[1:]) - 1, []
        for options in reversed(tried):
            picks.insert(0, options[rest % len(options)])
            rest //= len(options)
        status = row["status"]
        if status == "out":
            status = f"out after round {row['left_round']}"
        print(line(name, picks, row, status))
    for row in rows:
        if row["round"] == "check":
            name = f"{row['candidate']} at {row['level']}"
            print(line(name, ["" for _ in searched], row, "check (95%)"))


def line(name, picks, row, status):
    """One table row."""
    pct = lambda key: f"{100 * float(row[key]):.1f}"
    wins = (
        f"{pct('seat0_win_rate')} [{pct('seat0_win_rate_low')}, {pct('seat0_win_rate_high')}]"
        if row["seat0_win_rate"]
        else ""
    )
    exact = f"{100 * float(row['exact_seat0_score']):.2f}" if row["exact_seat0_score"] else ""
    return (
        f"| {name} | "
        + " | ".join(picks)
        + f" | {row['games']} | {pct('seat0_score')} [{pct('seat0_score_low')}, "
        f"{pct('seat0_score_high')}] | {wins} | {pct('draw_rate')} ({pct('cap_draws_rate')}) "
        f"| {float(row['mean_turns']):.1f} | {exact} | {status} |"
    )


if __name__ == "__main__":
    main()
