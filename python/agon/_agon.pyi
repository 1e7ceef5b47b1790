"""Type hints of the extension module (see the package's docstring)."""

from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar, Dict, List, Literal, Optional, Sequence, Tuple, Union, overload

import numpy as np
import numpy.typing as npt

CHANCE: int
"""``State.current_player()`` at a chance node (-1, as in OpenSpiel)."""
TERMINAL: int
"""``State.current_player()`` once the game is over (-4, as in OpenSpiel)."""

class AgonError(ValueError):
    """Bad input: an unknown game or agent, a bad parameter, an illegal move; also any
    failure inside Agon (an outside program that crashed), never a ``PanicException``."""

class GameInfo:
    """A registered game."""

    name: str
    about: str
    has_chance: bool
    has_hidden_information: bool
    parameters: List[Dict[str, Optional[str]]]
    """Each parameter's ``name``, ``kind``, ``default`` and ``help``."""

def games() -> List[GameInfo]:
    """Every registered game, in listing order."""

def load_game(spec: str) -> Game:
    """The game of a spec, ``name`` or ``name:key=value,...``."""

def run(args: Sequence[str]) -> Tuple[str, Optional[Path]]:
    """Runs an ``agon`` command (arguments without the program name); returns what it
    printed and the folder it wrote (``None`` if none). ``agon.run`` wraps this in an
    ``agon.RunResult``."""

def main(args: Sequence[str]) -> int:
    """The whole ``agon`` command line in this process (arguments without the program
    name): prints as the binary does and returns its exit code. ``agon.__main__`` calls
    it."""

class Game:
    """A configured game. Equal to another (and hashing alike) when their canonical
    specs are; pickles as its spec."""

    @property
    def name(self) -> str: ...
    @property
    def spec(self) -> str:
        """The canonical spec, every parameter filled in."""
    @property
    def parameters(self) -> Dict[str, str]: ...
    def new_initial_state(self) -> State: ...
    def num_distinct_actions(self) -> int:
        """Decisions are numbered ``0..num_distinct_actions()``."""
    def max_chance_outcomes(self) -> int:
        """Chance outcomes are numbered ``0..max_chance_outcomes()``."""
    def max_game_length(self) -> int:
        """No game has more decisions than this (chance outcomes not counted, as in
        OpenSpiel)."""
    def max_plies(self) -> int:
        """No game lasts more plies (decisions and chance outcomes together) than this."""
    def random_playouts(self, count: int, seed: int = 0) -> int:
        """Plays ``count`` random games in one call; returns the plies played.
        Ctrl-C raises ``KeyboardInterrupt`` within a fraction of a second."""
    def observation_tensor_shape(self) -> Tuple[int, int, int]:
        """``(planes + scalars, rows, cols)``, the shape of every observation tensor."""
    def encoding(self) -> Dict[str, Any]:
        """What a network sees: ``id``, ``rows``, ``cols``, ``planes`` (each ``name``,
        ``meaning``), ``scalars`` (each ``name``, ``meaning``, ``max``) and ``shape``."""

class State:
    """One position of a game, with the moves that led to it. Equal to another state of
    the same game (parameters included) reached by the same moves; unhashable, since it
    changes as moves are played (``hash()`` is the position's Zobrist key)."""

    __hash__: ClassVar[None]  # type: ignore[assignment]
    def __eq__(self, other: object) -> bool: ...

    def current_player(self) -> int:
        """0 or 1, ``CHANCE`` or ``TERMINAL``."""
    def is_chance_node(self) -> bool: ...
    def is_terminal(self) -> bool: ...
    def legal_moves(self) -> List[str]:
        """Legal decisions in notation, in the game's order."""
    def legal_actions(self) -> List[int]:
        """Dense ids of the legal decisions (at a chance node, of the outcomes), sorted."""
    @overload
    def chance_outcomes(self, exact: Literal[False] = False) -> List[Tuple[str, float]]: ...
    @overload
    def chance_outcomes(self, exact: Literal[True]) -> List[Tuple[str, Fraction]]:
        """The pending chance event's outcomes in notation, with their probabilities:
        floats, or exact with ``exact=True``."""
    @overload
    def chance_outcome_actions(self, exact: Literal[False] = False) -> List[Tuple[int, float]]: ...
    @overload
    def chance_outcome_actions(self, exact: Literal[True]) -> List[Tuple[int, Fraction]]:
        """The same outcomes as dense ids, sorted by id."""
    def apply(self, move: Union[str, int]) -> None:
        """Plays a legal move in notation or as its dense id; raises ``AgonError`` if
        illegal (for an id, naming the legal ids)."""
    def undo(self) -> None: ...
    def clone(self) -> State: ...
    def returns(self) -> List[float]:
        """+1 win, -1 loss, 0 draw for seats 0 and 1 (zeros while the game goes on)."""
    def end_reason(self) -> Optional[str]: ...
    def action_to_move(self, action: int) -> str: ...
    def move_to_action(self, move: str) -> int: ...
    def history(self) -> List[str]:
        """The moves from the start, chance outcomes included."""
    def ply(self) -> int: ...
    def side(self, seat: int) -> str: ...
    def hash(self) -> int: ...
    def observation_string(self, player: int) -> str:
        """What ``player`` sees: the whole position (nothing is private to one player)."""
    def observation_tensor(self, player: int) -> npt.NDArray[np.float32]:
        """What a network sees as ``player`` (0 or 1, else ``AgonError``): a new float32
        array of ``Game.observation_tensor_shape()``, the planes as 0/1, then each scalar
        as a constant plane of ``value / max``. Defined at every state."""
    def write_observation_tensor(self, player: int, out: npt.NDArray[np.float32]) -> None:
        """The same tensor written into ``out`` (a writable C-contiguous float32 array of
        as many values, any shape), making no new array; else ``AgonError``."""
    def features(self, player: int) -> List[int]:
        """The active binary features as ``player`` sees the position, increasing:
        ``plane * rows * cols + row * cols + col``."""
    def scalars(self, player: int) -> List[int]:
        """The encoding's scalars as ``player`` sees the position, each in ``0..=max``."""
    def picture(self) -> str:
        """The position as a text picture with its legend."""
    def description(self) -> Dict[str, Any]:
        """The position as data: ``cells``, ``pieces``, ``marks``, ``notes``, ``legend``."""
    def svg(self) -> str:
        """The position as a standalone SVG document."""
    def play_random(self, seed: int = 0) -> int:
        """Plays random moves to the end in one call; returns the plies played."""
    def __copy__(self) -> State: ...
    def __deepcopy__(self, memo: dict) -> State: ...

class SearchLine:
    """One completed iteration of a search."""

    depth: int
    value: str
    score: float
    nodes: int
    seconds: float
    pv: List[str]

class Choice:
    """What an agent's search found."""

    move: str
    action: int
    value: str
    score: float
    depth: int
    nodes: int
    seconds: float
    pv: List[str]
    iterations: List[SearchLine]

class Agent:
    """An agent for one game."""

    @property
    def spec(self) -> str: ...
    def choose(self, state: State) -> Choice:
        """Searches ``state`` (a seat to move, of this agent's game with the same
        parameters, else ``AgonError``) and returns the chosen move. Ctrl-C raises
        ``KeyboardInterrupt`` at once; the interrupted search finishes in the background
        and the agent's next ``choose`` waits for it."""

def agent(spec: str, game: Game, seed: int = 0) -> Agent:
    """The agent of ``spec`` for ``game``, its random stream seeded by ``seed``."""
