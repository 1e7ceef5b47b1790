"""The example bots of examples/ playing tournaments through the bindings."""

import csv
import sys
from pathlib import Path

import agon

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def bot(script, name, *args):
    arguments = " ".join([str(EXAMPLES / script), *args])
    return f"ext:cmd={sys.executable},args={arguments},name={name}"


def games(out):
    with open(out / "games.csv", newline="") as f:
        return list(csv.DictReader(f))


def test_the_standard_library_bots_play_agons_greedy(tmp_path):
    out = tmp_path / "run"
    agents = [bot("random_bot.py", "py-random"), bot("greedy_bot.py", "py-greedy"), "greedy"]
    agon.tournament("connect4", agents, games=4, seed=2, out=str(out), threads=2)
    rows = games(out)
    assert len(rows) == 12
    assert all(r["end_reason"] != "forfeit" for r in rows), rows


def test_a_bot_written_with_the_bindings_plays_any_game(tmp_path):
    out = tmp_path / "run"
    agents = [bot("agon_bot.py", "py-one-ply"), bot("agon_bot.py", "py-mcts", "mcts:iters=50"), "random"]
    agon.tournament("apv:max_turns=12", agents, games=2, seed=3, out=str(out), threads=2)
    rows = games(out)
    assert len(rows) == 6
    assert all(r["end_reason"] != "forfeit" for r in rows), rows
    # The same run again gives the same games: the bots are seeded by the protocol.
    again = tmp_path / "again"
    agon.tournament("apv:max_turns=12", agents, games=2, seed=3, out=str(again), threads=1)
    assert [r["moves"] for r in games(again)] == [r["moves"] for r in rows]
