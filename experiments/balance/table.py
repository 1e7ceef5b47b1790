#!/usr/bin/env python3
"""Prints the findings table of one balance study for docs/balance.md.

Usage: experiments/balance/table.py STUDY   (from the repository root; STUDY is a folder
name under results/balance/, such as `apv`)

Reads results/balance/STUDY/balance.csv, the tidy file `agon balance` wrote, and prints
one Markdown table per variant (the canonical game spec as its heading): a row per
ladder level with its self-play measurements and, from the second level on, the step
from the level before it. Every number is copied from balance.csv (rates as percentages
with one decimal); nothing is recomputed. "short decisive" is the share of decisive games
won within two decisions of the opening (`-` without decisive games). A test
(cli/tests/docs.rs) checks that docs/balance.md holds exactly these tables.
"""
import csv
import re
import sys
from collections import OrderedDict


def pct(value):
    return f"{100 * float(value):.1f}"


def interval(stat):
    """`value [low, high]` in percent, or just the value where there is no interval."""
    if stat is None:
        return ""
    value, low, high = stat
    if low == "":
        return pct(value)
    return f"{pct(value)} [{pct(low)}, {pct(high)}]"


def main(study):
    path = f"results/balance/{study}/balance.csv"
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    # variant -> level -> {"self": {statistic: (value, low, high)}, "step": {...}, "agent"}
    variants = OrderedDict()
    for r in rows:
        level = variants.setdefault(r["variant"], OrderedDict()).setdefault(
            int(r["level"]), {"agent": r["agent"], "self": {}, "step": {}}
        )
        kind = "step" if r["opponent"] else "self"
        level[kind][r["statistic"]] = (r["value"], r["low"], r["high"])
    for variant, levels in variants.items():
        pie = any("swap_rate" in lv["self"] for lv in levels.values())
        print(f"`{variant}`\n")
        head = [
            "level",
            "agent",
            "games (distinct)",
            "seat 0 wins, % of decisive [95%]",
            "seat 0 score %",
        ]
        if pie:
            head += ["first side wins, % of decisive [95%]", "swaps %"]
        head += [
            "short decisive, % of decisive",
            "draws % (by the cap)",
            "turns, median (q1-q3)",
            "branching",
            "score vs level below % [95%]",
            "upset rate %",
        ]
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for number, lv in levels.items():
            s, t = lv["self"], lv["step"]
            # A ladder study labels its agents `L4=spec`; an explicit one, the spec.
            label = re.sub(r"^L[0-9]+=", "", lv["agent"])
            cells = [
                str(number),
                f"`{label}`",
                f"{s['games'][0]} ({s['distinct_games'][0]})",
                interval(s.get("seat0_win_rate")),
                pct(s["seat0_score"][0]),
            ]
            if pie:
                cells += [
                    interval(s.get("first_side_win_rate")),
                    pct(s["swap_rate"][0]),
                ]
            short = s.get("short_decisive_rate", ("",))[0]
            cells += [
                pct(short) if short else "-",
                f"{pct(s['draw_rate'][0])} ({pct(s['cap_draw_rate'][0])})",
                f"{float(s['turns_median'][0]):g} ({float(s['turns_q1'][0]):g}-"
                f"{float(s['turns_q3'][0]):g})",
                s["branching_mean"][0],
                interval(t.get("score_vs_previous")),
                pct(t["upset_rate"][0]) if "upset_rate" in t else "",
            ]
            print("| " + " | ".join(cells) + " |")
        print()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[2])
    main(sys.argv[1])
