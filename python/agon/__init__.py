"""Agon from Python: its games, agents and tournaments.

Every game and agent of the ``agon`` command line, with the rules and searches running
natively::

    import agon

    game = agon.load_game("apv:orders=false")
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.legal_actions()[0])
        else:
            state.apply(state.legal_moves()[0])      # notation, or a dense id
    print(state, state.returns())

    bot = agon.agent("mcts:iters=1000", game, seed=1)
    choice = bot.choose(game.new_initial_state())
    print(choice.move, choice.value, choice.pv)

    result = agon.tournament("connect4", ["ab:depth=4", "mcts:iters=2000"], games=20,
                             out="results/c4-match")
    print(result)                       # the report agon printed
    result.tables["games"]              # games.csv as a DataFrame (pandas) or dicts

``python -m agon`` and the ``agon`` command installed with the package are the ``agon``
command line itself.

``import agon.openspiel`` registers every game with OpenSpiel's Python API as
``agon_<name>`` (needs the ``open-spiel`` package).

Examples in the package's docstrings are literal blocks (a paragraph ending in ``::``,
then the indented code), always Python; the tests run every one of them as written.

Errors are :class:`AgonError` (a ``ValueError``) with the command line's message, a
failure inside Agon included.
"""

from __future__ import annotations

from typing import Optional, Sequence

from . import _agon
from ._agon import __version__  # the package's version
from ._agon import (
    CHANCE,
    TERMINAL,
    Agent,
    AgonError,
    Choice,
    Game,
    GameInfo,
    SearchLine,
    State,
    agent,
    games,
    load_game,
)
from .results import RunResult, Tables, read_table

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Agent",
    "AgonError",
    "Choice",
    "Game",
    "GameInfo",
    "RunResult",
    "SearchLine",
    "State",
    "agent",
    "games",
    "load_game",
    "read_table",
    "run",
    "Tables",
    "tournament",
]


def run(args: Sequence[str]) -> RunResult:
    """Runs an ``agon`` command, as ``agon ARGS...`` on the command line (``args``
    without the program name), and returns a :class:`RunResult`: what it printed
    (``str(result)``), the folder it wrote its run, study or report into (``folder``;
    ``None`` for commands that write none, such as ``games`` or ``perft``), and that
    folder's CSV files as tables (``result.tables["games"]``). Runs write their folder
    exactly as the command line does. ``["--help"]`` and ``["--version"]`` (of any
    command) return the text the command line prints. Raises :class:`AgonError` on bad
    input, with the command line's one-line message.

    Ctrl-C during a run of games (``tournament``, ``run``, ``balance``) stops it
    between games: no game starts after it, the games played are kept in the folder
    (the same command with ``--resume`` continues the run to the files of an
    uninterrupted one), and ``KeyboardInterrupt`` is raised once the games being played
    have ended; a second Ctrl-C raises it at once. Any other command raises it at once.
    """
    text, folder = _agon.run(list(args))
    return RunResult(folder, text)


def __dir__() -> "list[str]":
    """What ``dir(agon)`` lists: the API (``__all__``), the submodules imported so far
    (``openspiel``) and the module's own dunder names, not the names its code imports for
    itself (``Optional``, ...)."""
    names = set(__all__)
    for name, value in globals().items():
        submodule = getattr(value, "__name__", None) == f"{__name__}.{name}"
        if name.startswith("__") or (submodule and not name.startswith("_")):
            names.add(name)
    return sorted(names)


def tournament(
    game: str,
    agents: Sequence[str],
    *,
    out: str,
    games: int = 10,
    seed: int = 1,
    threads: Optional[int] = None,
    options: Sequence[str] = (),
) -> RunResult:
    """Runs a round-robin tournament into the folder ``out`` and returns its result
    (:func:`run`): ``str(result)`` is the report, ``result.tables`` its files.

    The same as ``agon tournament --game GAME --agents AGENT... --games N --seed S
    --out DIR [--threads T] [OPTIONS...]`` on the command line (``options`` are more of
    its flags, e.g. ``["--random-opening", "4"]``), with the same files: meta.csv,
    games.csv, timings.csv, summary.csv and report.html. Results do not depend on
    ``threads``. Raises :class:`AgonError` on bad input; Ctrl-C stops it between games
    as :func:`run` says, the folder kept for ``--resume``.
    """
    args = ["tournament", "--game", game, "--agents", *agents]
    args += ["--games", str(games), "--seed", str(seed), "--out", out]
    if threads is not None:
        args += ["--threads", str(threads)]
    return run([*args, *options])
