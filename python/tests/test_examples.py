"""The example bots of examples/ playing tournaments through the bindings, as outside
programs (`ext:`): the standard-library bots, and the bots written with the bot kit
`agon.bot`, one for each kind of game (deterministic, with dice, with hidden terrain)."""

import csv
import sys
from pathlib import Path

import agon

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def bot(script, name, *args):
    """The ext spec of `script` (in examples/, or a path) run by this Python."""
    arguments = " ".join([str(EXAMPLES / script), *args])
    return f"ext:cmd={sys.executable},args={arguments},name={name}"


def games(out):
    with open(out / "games.csv", newline="") as f:
        return list(csv.DictReader(f))


def repeatable(tmp_path, game, agents, games_per_pairing, seed):
    """The games.csv rows of a tournament run at two threads, after checking that none
    is a forfeit and that the run at one thread plays the same games."""
    out = tmp_path / "run"
    agon.tournament(game, agents, games=games_per_pairing, seed=seed, out=str(out), threads=2)
    rows = games(out)
    assert all(r["end_reason"] != "forfeit" for r in rows), rows
    again = tmp_path / "again"
    agon.tournament(game, agents, games=games_per_pairing, seed=seed, out=str(again), threads=1)
    assert [r["moves"] for r in games(again)] == [r["moves"] for r in rows]
    return rows


def seat_of(row, label):
    """The seat `label` plays in a games.csv row."""
    return 0 if row["agent0"] == label else 1


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


def test_the_kits_dice_bot_holds_when_pig_forces_it(tmp_path):
    # Hold at 20 to a target of 30: a player with 20 banked who rolls 10 more must hold
    # before its turn total reaches 20; the kit's legal moves make the bot do it.
    rows = repeatable(tmp_path, "pig:target=30", [bot("pig_bot.py", "hold20"), "greedy"], 6, 4)
    assert len(rows) == 6
    forced = 0
    for row in rows:
        moves = row["moves"].split()
        last_turn = moves[max(i for i, m in enumerate(moves[:-1]) if m in ("hold", "1")) + 1:]
        total = sum(int(m) for m in last_turn if m not in ("roll", "hold"))
        if row["winner"] == str(seat_of(row, "hold20")) and total < 20:
            forced += 1
    assert forced >= 1, rows


def test_the_kits_hidden_terrain_bot_plays_hexstrat(tmp_path):
    rows = repeatable(
        tmp_path, "hexstrat:max_rounds=8", [bot("hexstrat_bot.py", "mc", "4"), "random"], 2, 6
    )
    assert len(rows) == 2
    # Tiles were revealed in the bot's games: the line it was told held their outcomes.
    reveals = {"plains", "forest", "mountain"}
    assert all(reveals & set(r["moves"].split()) for r in rows), rows


def test_a_kit_bot_that_plays_an_illegal_move_forfeits_with_the_reason(tmp_path):
    script = tmp_path / "wrong_bot.py"
    script.write_text("import agon.bot\n\nagon.bot.serve(lambda state, request: 'z9')\n")
    out = tmp_path / "run"
    agon.tournament("connect4", [bot(script, "wrong"), "random"], games=2, seed=1, out=str(out))
    rows = games(out)
    assert len(rows) == 2
    for row in rows:
        seat = seat_of(row, "wrong")
        ply = 0 if seat == 0 else 1
        legal = "a, b, c, d, e, f, g"
        why = (f"choose returned the illegal move 'z9' at ply {ply}: \"z9\": \"z9\" is not a "
               f"column (one letter, a to g); legal moves: {legal}")
        assert row["end_reason"] == "forfeit"
        assert row["note"] == (f"seat {seat} (wrong) ext program \"{sys.executable}\" "
                               f"answered no move: {why}")
        log = (out / f"ext-wrong-seat{seat}.log").read_text()
        assert f"agon.bot: {why}\n" in log


def test_the_bot_of_the_protocols_page_plays_as_written(tmp_path):
    page = (EXAMPLES.parent / "docs" / "protocol.md").read_text()
    section = page[page.index("## Writing a bot in Python"):]
    code = section[section.index("```python\n") + len("```python\n"):]
    script = tmp_path / "my_bot.py"
    script.write_text(code[:code.index("```")])
    rows = repeatable(tmp_path, "connect4", [bot(script, "doc"), "random"], 4, 8)
    assert len(rows) == 4
