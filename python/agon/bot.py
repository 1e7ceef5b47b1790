"""A kit for bots written outside Agon: the engine protocol spoken for you.

A bot is one function. It is given the position as an :class:`agon.State` (so it has
the game's rules and legal moves from the bindings) and returns its move: its notation
(``"d"``, ``"roll"``, ``"I:d3"``), or its dense action id (an ``int``, as
``state.legal_actions()`` gives)::

    import agon.bot

    def choose(state):
        return state.legal_moves()[0]

    if __name__ == "__main__":
        agon.bot.serve(choose)

A bot that takes a second parameter is also given a :class:`Request`: the game, the
limits of the controller's ``go``, and a random generator seeded from the protocol's
seed (``def choose(state, request): return request.rng.choice(state.legal_moves())``).

:func:`serve` reads the protocol of ``docs/protocol.md`` on standard input until
``quit`` or the end of its input, so the script plays in Agon's tournaments as
``ext:cmd=python3,args=my_bot.py`` (with the Python that has ``agon`` installed). It
follows the whole session:

- ``ugi`` and ``isready`` are answered; ``setoption name game`` loads the game (a
  refused spec is reported, and the session then has no game until one is set);
  ``setoption name seed`` sets the seed (1 until then).
- ``position startpos moves ...`` is replayed on the game's initial state, chance
  outcomes (a die's face, a revealed tile) included as the controller sends them. The
  hidden parts of Agon's games (Hexstrat's face-down terrain, 3Will's cards) are hidden
  from both players alike: they are chance events, drawn when revealed and sent as
  outcomes in the line, so the state a bot gets knows exactly what its player knows.
- ``go`` calls the bot, only at a decision (a seat to move). Its limits (``depth``,
  ``nodes``, ``movetime``) are in :attr:`Request.limits`; a plain ``go`` leaves the bot
  to its own budget.
- Every error (no game, an illegal move in ``position``, a bot that raises, or returns
  a move that is not legal) is one line on standard error, beginning ``agon.bot:``,
  the same line as ``info string error: ...`` on standard output, and ``bestmove
  (none)`` answers the ``go``: Agon's ``ext:`` agent then forfeits the game with that
  line's reason in games.csv's note.

What the bot prints with ``print()`` goes to standard error (in a tournament, the
program's log), never into the protocol.
"""

from __future__ import annotations

import contextlib
import inspect
import operator
import random
import sys
import time
import traceback
from dataclasses import dataclass, field
from typing import BinaryIO, Callable, Iterable, List, Optional, TextIO, Tuple, Union

from ._agon import AgonError, Game, State, load_game

__all__ = ["Limits", "Request", "Move", "Chooser", "serve", "NO_MOVE"]

Move = Union[str, int]
"""A move: its notation, or its dense action id."""

Chooser = Union[Callable[[State], Move], Callable[[State, "Request"], Move]]
"""A bot: ``choose(state) -> move``, or ``choose(state, request) -> move``."""

NO_MOVE = "(none)"
"""The move a ``go`` is answered with when no move can be given (after an error line)."""

#: How many legal moves the message of an illegal move lists before it stops.
LISTED_MOVES = 20


@dataclass(frozen=True)
class Limits:
    """The limits of a ``go`` command, each ``None`` where the controller set none.

    A plain ``go`` sets none: the bot plays within its own budget. A bot should keep
    within any limit it is given; the kit enforces none of them (the controller does:
    Agon's ``ext:`` agent forfeits a program that does not answer within its
    ``timeout``).
    """

    depth: Optional[int] = None
    """``go depth N``: search N plies deep."""
    nodes: Optional[int] = None
    """``go nodes N``: search at most N nodes (playouts, positions: the bot's unit)."""
    movetime: Optional[int] = None
    """``go movetime MS``: answer within MS milliseconds."""

    def any(self) -> bool:
        """Whether the controller set any limit."""
        return (self.depth, self.nodes, self.movetime) != (None, None, None)


@dataclass
class Request:
    """What the controller asks at one ``go``, besides the position."""

    game: Game
    """The game being played, as the last ``setoption name game`` set it."""
    moves: Tuple[str, ...]
    """The line of moves from the start to the position, chance outcomes included."""
    seed: int
    """The session's seed (``setoption name seed``; 1 until one is sent)."""
    rng: random.Random
    """A generator seeded by the seed and the position's ply: the same session gives
    the same moves, and so does the same position asked again."""
    limits: Limits
    """The limits of this ``go``."""
    deadline: Optional[float] = None
    """With ``movetime``, the :func:`time.monotonic` instant by which to answer."""
    nodes: Optional[int] = field(default=None)
    """Set by the bot to report how many nodes it searched (``info nodes N``, which Agon
    records in its speed tables); ``None`` reports nothing."""


def serve(
    choose: Chooser,
    *,
    name: Optional[str] = None,
    author: str = "an Agon bot kit user",
    input: Optional[Union[BinaryIO, TextIO, Iterable[Union[bytes, str]]]] = None,
    output: Optional[TextIO] = None,
    log: Optional[TextIO] = None,
) -> None:
    """Plays ``choose`` over the engine protocol until ``quit`` or the end of input.

    ``name`` (default: the function's name) and ``author`` are what ``ugi`` answers.
    ``input``, ``output`` and ``log`` default to standard input (read as bytes: a line
    that is not UTF-8 is ignored, as the protocol asks), standard output and standard
    error; tests pass streams of their own. ``choose`` is called as ``choose(state,
    request)`` with a copy of the position (the bot may change it freely), or as
    ``choose(state)`` when it takes one positional parameter, and must return a legal
    move, in notation or as a dense action id. A ``choose`` whose parameters cannot be
    told apart (neither form fits) is refused with a ``TypeError`` before any input is
    read.
    """
    out = output if output is not None else sys.stdout
    err = log if log is not None else sys.stderr
    lines = input if input is not None else sys.stdin.buffer
    label = name if name is not None else getattr(choose, "__name__", type(choose).__name__)
    session = _Session(_with_request(choose), label, author, out, err)
    for raw in lines:
        if isinstance(raw, bytes):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                continue
        else:
            line = raw
        if not session.command(line.split()):
            return


def _with_request(choose: Chooser) -> Callable[[State, "Request"], Move]:
    """``choose`` called as ``choose(state, request)`` whichever form it has."""
    try:
        signature = inspect.signature(choose)
    except (TypeError, ValueError):  # a builtin without a signature: take the full form
        return choose  # type: ignore[return-value]
    for arguments in ((None, None), (None,)):
        try:
            signature.bind(*arguments)
        except TypeError:
            continue
        if len(arguments) == 2:
            return choose  # type: ignore[return-value]
        return lambda state, request: choose(state)  # type: ignore[call-arg]
    raise TypeError(
        f"choose{signature} cannot be called as choose(state) or choose(state, request)"
    )


class _Session:
    """What a session has been told so far, and its answers."""

    def __init__(self, choose: Chooser, name: str, author: str, out: TextIO, err: TextIO):
        self.choose = choose
        self.name = name
        self.author = author
        self.out = out
        self.err = err
        self.game: Optional[Game] = None
        self.seed = 1
        # The position: the line told, its state, or why it cannot be played.
        self.moves: List[str] = []
        self.state: Optional[State] = None
        self.broken: Optional[str] = None

    def send(self, *lines: str) -> None:
        for line in lines:
            self.out.write(line + "\n")
        self.out.flush()

    def error(self, message: str) -> None:
        """Reports ``message`` (one line) on standard error and to the controller."""
        self.err.write(f"agon.bot: {message}\n")
        self.err.flush()
        self.send(f"info string error: {message}")

    def command(self, words: List[str]) -> bool:
        """Carries out one command; ``False`` once the session is over."""
        if not words:
            return True
        head = words[0]
        if head == "quit":
            return False
        if head == "ugi":
            self.send(
                f"id name {self.name}",
                f"id author {self.author}",
                f"option name game type string default "
                f"{self.game.spec if self.game else '<empty>'}",
                "option name seed type spin default 1",
                "ugiok",
            )
        elif head == "isready":
            self.send("readyok")
        elif head == "setoption" and words[1:2] == ["name"] and words[3:4] == ["value"]:
            self.set(words[2], " ".join(words[4:]))
        elif head == "uginewgame":
            self.position([])
        elif head == "position" and words[1:2] == ["startpos"]:
            self.position(words[3:] if words[2:3] == ["moves"] else [])
        elif head == "go":
            self.go(words[1:])
        # Anything else is ignored, as the protocol asks.
        return True

    def set(self, option: str, value: str) -> None:
        """``setoption name OPTION value VALUE``: the game or the seed."""
        if option == "game":
            try:
                self.game = load_game(value)
            except AgonError as e:
                # The game asked for is not the one set before: play none.
                self.game = None
                self.error(f"setoption name game value {value} refused: {e}")
            self.position([])
        elif option == "seed":
            try:
                seed = int(value)
                if not 0 <= seed < 2**64:
                    raise ValueError
            except ValueError:
                self.error(f"seed {value!r} refused: a whole number from 0 to 2^64-1 is expected")
            else:
                self.seed = seed

    def position(self, moves: List[str]) -> None:
        """Replays ``moves`` from the start, applying only the new ones when the line
        extends the last one told (as it does from one move to the next)."""
        if self.game is None:
            self.moves, self.state = list(moves), None
            self.broken = "no game: send setoption name game value <game spec>"
            return
        known = len(self.moves)
        if self.state is None or self.broken or moves[:known] != self.moves:
            self.state, known = self.game.new_initial_state(), 0
        self.moves, self.broken = list(moves), None
        for ply, move in enumerate(moves[known:], start=known + 1):
            try:
                self.state.apply(move)
            except AgonError as e:
                self.broken = f"move {ply} of the position, {move!r}, is not legal: {e}"
                self.error(self.broken)
                return

    def go(self, words: List[str]) -> None:
        """``go [depth N] [nodes N] [movetime MS]``: asks the bot, answers ``bestmove``."""
        began = time.monotonic()
        try:
            limits = _limits(words)
            state, game = self.decision()
        except _Refused as e:
            self.error(str(e))
            self.send(f"bestmove {NO_MOVE}")
            return
        deadline = None if limits.movetime is None else began + limits.movetime / 1000
        request = Request(
            game=game,
            moves=tuple(self.moves),
            seed=self.seed,
            rng=random.Random((self.seed << 32) | state.ply()),
            limits=limits,
            deadline=deadline,
        )
        try:
            # The bot's prints go to the log, never into the protocol.
            with contextlib.redirect_stdout(self.err):
                move = self.choose(state.clone(), request)
        except Exception as e:  # the bot's failure ends this answer, not the session
            self.err.write(traceback.format_exc())
            self.error(f"choose raised {type(e).__name__}: {_one_line(str(e))}")
            self.send(f"bestmove {NO_MOVE}")
            return
        try:
            text = _notation(state, move)
        except _Refused as e:
            self.error(f"choose returned {e}")
            self.send(f"bestmove {NO_MOVE}")
            return
        if request.nodes is not None:
            elapsed = int((time.monotonic() - began) * 1000)
            self.send(f"info nodes {request.nodes} time {elapsed}")
        self.send(f"bestmove {text}")

    def decision(self) -> Tuple[State, Game]:
        """The position to choose in and its game; refused unless a seat is to move."""
        if self.game is None:
            raise _Refused("no game: send setoption name game value <game spec>")
        if self.broken is not None or self.state is None:
            raise _Refused(self.broken or "no position")
        if self.state.is_terminal():
            raise _Refused("no seat is to move in this position: the game is over")
        if self.state.is_chance_node():
            raise _Refused("no seat is to move in this position: a chance event is pending")
        return self.state, self.game


class _Refused(Exception):
    """A command that cannot be carried out, with the reason."""


def _limits(words: List[str]) -> Limits:
    """The limits of ``go``'s words; other words are ignored, a bad value refused."""
    values = {}
    it = iter(words)
    for word in it:
        if word not in ("depth", "nodes", "movetime"):
            continue
        value = next(it, None)
        if value is None:
            raise _Refused(f"go {word} refused: a value is expected")
        if not (value.isascii() and value.isdigit()):
            raise _Refused(f"go {word} {value} refused: a whole number is expected")
        values[word] = int(value)
    return Limits(**values)


def _notation(state: State, move: object) -> str:
    """The notation of ``move`` (notation or a dense id), checked legal in ``state``."""
    if isinstance(move, str):
        shown = repr(move)
    elif isinstance(move, bool) or not hasattr(move, "__index__"):
        raise _Refused(
            f"{move!r} ({type(move).__name__}), not a move: return the move's notation "
            f"(a str) or its dense action id (an int)"
        )
    else:
        move = operator.index(move)
        shown = f"the action id {move}"
    probe = state.clone()
    try:
        if isinstance(move, int) and move < 0:
            raise AgonError(f"{move} is not an action id (ids are 0 or more)")
        probe.apply(move)
        # The game's own spelling of the move (Pig reads `stop`, writes `hold`).
        return probe.history()[-1]
    except (AgonError, OverflowError) as e:
        legal = state.legal_moves()
        listed = ", ".join(legal[:LISTED_MOVES])
        if len(legal) > LISTED_MOVES:
            listed += f", … ({len(legal)} in all)"
        raise _Refused(
            f"the illegal move {shown} at ply {state.ply()}: {_one_line(str(e))}; "
            f"legal moves: {listed}"
        ) from None


def _one_line(text: str) -> str:
    """``text`` on one line."""
    return " ".join(text.split())
