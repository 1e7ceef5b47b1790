#!/usr/bin/env python3
"""Nodes and time to a fixed depth of several agent specs on the same positions.

Usage: experiments/ordering/nodes.py GAME RUN SPECS GAMES   (from the repository root,
with a release build at target/release/agon or AGON=path)

- GAME: the game spec the run was played with (`hexstrat`);
- RUN: a run folder whose games give the positions (`results/ladder-hexstrat-4`): from
  each of its first GAMES games, the positions 10%, 30%, 50% and 70% of the way through
  its recorded plies (chance outcomes included);
- SPECS: agent specs separated by `|`; the first is the reference.

Each position is searched by `agon analyse` with every spec; the script prints, per
spec, the total nodes and milliseconds, the ratio of its total nodes to the
reference's, and the median of its per-position node ratios. For specs that differ only
in move order (`history=true`), the values are the same and only the nodes tell them
apart.
"""

import csv
import gzip
import os
import re
import statistics
import subprocess
import sys

FRACTIONS = (0.1, 0.3, 0.5, 0.7)


def positions(run, games):
    path = os.path.join(run, "games.csv")
    if os.path.exists(path):
        f = open(path, newline="")
    else:
        f = gzip.open(path + ".gz", "rt", newline="")
    with f:
        rows = list(csv.DictReader(f))[:games]
    for row in rows:
        tokens = row["moves"].split(" ")
        for fraction in FRACTIONS:
            yield " ".join(tokens[: int(len(tokens) * fraction)])


def search(agon, game, spec, moves):
    out = subprocess.run(
        [agon, "analyse", "--game", game, "--agent", spec, "--moves", moves],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    nodes, ms = re.findall(r"nodes (\d+) time_ms (\d+)", out)[-1]
    return int(nodes), int(ms)


def main(game, run, specs, games):
    agon = os.environ.get("AGON", "target/release/agon")
    specs = specs.split("|")
    found = {spec: [] for spec in specs}
    lines = list(positions(run, games))
    for moves in lines:
        for spec in specs:
            found[spec].append(search(agon, game, spec, moves))
    reference = found[specs[0]]
    total = sum(n for n, _ in reference)
    print(f"{game}: {len(lines)} positions from {run}")
    for spec in specs:
        nodes = sum(n for n, _ in found[spec])
        ms = sum(t for _, t in found[spec])
        ratios = [n / r for (n, _), (r, _) in zip(found[spec], reference) if r > 0]
        print(
            f"{spec}: nodes {nodes} time_ms {ms} ratio of totals {nodes / total:.3f} "
            f"median ratio {statistics.median(ratios):.3f}"
        )


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]))
