"""Agon's games inside OpenSpiel's Python API.

Importing this module registers every Agon game with OpenSpiel (the ``open-spiel``
package) as ``agon_<name>``: ``pyspiel.load_game("agon_apv(orders=false)")`` then works
with OpenSpiel's algorithms (``MCTSBot``, ``evaluate_bots``, CFR on small games, ...)
and its checks (``pyspiel.random_sim_test``). Parameters are passed through to the Agon
game with their Agon names and defaults.

How the games are declared:

* sequential, two players, zero-sum, terminal rewards of +1 / -1 / 0;
* decisions are the game's dense action ids (``0..num_distinct_actions``), chance
  outcomes their own dense ids (``0..max_chance_outcomes``), legal actions sorted;
* ``max_game_length`` is the game's true bound on decisions (chance outcomes are not
  counted, as OpenSpiel counts a game's length; ``agon.Game.max_plies`` counts both);
* perfect information with explicit chance: Hexstrat's hidden terrain and 3Will's dice
  and cards are hidden from both players alike, so they are chance events, and nothing
  is private to one player. The observation of either player is the whole board.

Tensors, for OpenSpiel's learning algorithms (``rl_environment``, DQN, AlphaZero, NFSP,
...): every game provides an observation tensor and an information-state tensor.

* **The observation tensor** of ``player`` is the game's encoding (what Agon's learned
  evaluators read) made dense: shape ``[planes + scalars, rows, cols]``
  (``game.observation_tensor_shape()``), each binary plane as 0/1 per cell, then each
  scalar as a constant plane of ``value / max`` (so every value is in ``0..=1``). It is
  seen from ``player``'s seat ("my" pieces and "their" pieces, a hex board turned so that
  one's own side is at the bottom), so one network serves both seats, and it shows only
  what both players know (Hexstrat's face-down tiles are a plane of their own, never
  their type). What each channel means is in ``game.agon_game.encoding()`` (and ``agon
  agents --game G`` prints it); ``observer.dict`` has one entry, ``"observation"``, the
  tensor in its 3-D shape (a single entry, so that OpenSpiel declares the 3-D shape that
  convolutional networks need, rather than a flat one).
* **The information-state tensor is the observation tensor.** In a game of perfect
  information with public chance a player's information state is the public history;
  OpenSpiel's own perfect-information games (Connect Four, backgammon, chess) give no
  tensor for it, only for the observation. Agon's games give the observation tensor
  there too, so that algorithms reading information-state tensors (``rl_environment``'s
  default, NFSP, Deep CFR) run unchanged. The tensor is the position with the counters
  the rules read (length caps, seize counts, the tiles left in a bag, Romgon's
  repetitions), not the history: two histories reaching the same position share it.
  ``information_state_string`` keeps the exact history for tabular methods.

Python callers reach the state's hot methods directly (``legal_actions``,
``apply_action``, ``chance_outcomes``, ``clone``, ...: see :class:`AgonState`), so a
playout loop written in Python runs at least as fast on an ``agon_`` game as on
OpenSpiel's own C++ game; OpenSpiel's C++ side (its history, ``serialize``, its
algorithms) sees the same game.

Games and states pickle (a game as its name and parameters, loaded again through
OpenSpiel; a state as OpenSpiel serializes it), so they can be sent to worker processes.

:class:`AgonBot` plays an Agon agent (``"mcts:iters=1000"``, ``"ab:depth=6"``, ...) as
an OpenSpiel bot, so Agon's searches and OpenSpiel's meet in ``evaluate_bots``.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

import numpy as np
import pyspiel

import agon

PREFIX = "agon_"
"""OpenSpiel's name of an Agon game is this prefix and the game's name."""

# Agon numbers the chance player and the end of the game as OpenSpiel does, so that a
# player passes between the two unchanged.
if (agon.CHANCE, agon.TERMINAL) != (int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)):
    raise ImportError("agon.CHANCE and agon.TERMINAL differ from OpenSpiel's player ids")


def _default(kind: str, text: Optional[str]) -> Any:
    """A parameter's default as the Python value OpenSpiel declares it with."""
    if text is None:
        raise ValueError("every game parameter has a default")
    if kind == "true|false":
        return text == "true"
    if kind.startswith("integer"):
        return int(text)
    return text


def _spec(name: str, params: Dict[str, Any]) -> str:
    """The Agon spec of ``name`` with OpenSpiel's parameter values."""
    if not params:
        return name
    items = []
    for key, value in sorted(params.items()):
        if isinstance(value, bool):
            value = "true" if value else "false"
        items.append(f"{key}={value}")
    return f"{name}:{','.join(items)}"


def _game_type(info: agon.GameInfo) -> pyspiel.GameType:
    chance = (
        pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        if info.has_chance
        else pyspiel.GameType.ChanceMode.DETERMINISTIC
    )
    return pyspiel.GameType(
        short_name=PREFIX + info.name,
        long_name=f"Agon {info.about}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            p["name"]: _default(p["kind"], p["default"]) for p in info.parameters
        },
    )


class AgonGame(pyspiel.Game):
    """An Agon game as an OpenSpiel game (one subclass per Agon game is registered)."""

    AGON_NAME = ""

    def __init__(self, params: Optional[Dict[str, Any]] = None) -> None:
        params = dict(params or {})
        self.agon_game = agon.load_game(_spec(self.AGON_NAME, params))
        info = pyspiel.GameInfo(
            num_distinct_actions=self.agon_game.num_distinct_actions(),
            max_chance_outcomes=self.agon_game.max_chance_outcomes(),
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.agon_game.max_game_length(),
        )
        super().__init__(_TYPES[self.AGON_NAME], info, params)

    def new_initial_state(self) -> "AgonState":
        return AgonState(self, self.agon_game.new_initial_state())

    def __reduce__(self) -> Tuple[Any, Tuple[str, Dict[str, Any]]]:
        """Pickles as the game's name and parameters, loaded through OpenSpiel (after
        importing this module, which registers the games)."""
        return (_load_game, (self.AGON_NAME, self.get_parameters()))

    def make_py_observer(self, iig_obs_type=None, params=None) -> "BoardObserver":
        """The whole board for either player (see the module's docs); with perfect
        recall (the information state), the public history before it in the string. The
        tensor is the encoding's, with and without recall."""
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return BoardObserver(params, recall, self.agon_game.observation_tensor_shape())


def _load_game(name: str, params: Dict[str, Any]) -> AgonGame:
    """The game ``agon_<name>`` with these parameters: how a pickled game is loaded."""
    return pyspiel.load_game(PREFIX + name, params)


def _load_state(game: AgonGame, serialized: str) -> "AgonState":
    """The state that ``serialized`` (``AgonState.serialize``) describes, in ``game``:
    how a pickled state is loaded."""
    return game.deserialize_state(serialized)


class AgonState(pyspiel.State):
    """A position of an Agon game, driven by OpenSpiel's action ids.

    The Agon state (``agon_state``) plays the moves and holds the history. OpenSpiel's
    C++ side keeps a record of the history of its own, which its ``ApplyAction`` extends
    and its ``Clone``, ``Serialize`` and ``History`` read. A Python caller reaches the
    state's hot methods directly, without going through C++ (whose calls back into
    Python cost far more than the move): ``apply_action``, ``legal_actions``,
    ``current_player``, ``is_terminal``, ``is_chance_node``, ``chance_outcomes``,
    ``clone``, ``child``, ``history``, ``move_number``. A move applied that way is not yet
    in OpenSpiel's record, which then holds the history's first ``_synced`` plies: the
    rest is written into it (:meth:`_sync`) before C++ lists the legal decisions or
    applies a move, and before ``full_history``, ``serialize`` and ``pickle``. C++'s
    ``Clone`` and ``Serialize`` copy the record and ``_synced`` together, so a copy is
    consistent too.

    The Agon state is kept twice: in the instance's dict, which C++'s ``Clone`` copies
    and ``Serialize`` pickles (and which they write back, through the property
    ``agon_state``), and in the slot ``_s``, which the hot methods read: an attribute of
    the dict of an instance of a pybind11 class is markedly slower to read than a slot,
    and it is read once a call. The two hottest, ``apply_action`` and ``is_chance_node``,
    are slots too, holding the Agon state's own ``apply`` and ``is_chance_node``, so that
    a call goes straight to it. (The methods that C++ calls back by name,
    ``current_player``, ``is_terminal``, ``chance_outcomes``, ``returns``, must stay
    Python functions: pybind11 takes a native function found under such a name for no
    override at all.)
    """

    __slots__ = ("_s", "apply_action", "is_chance_node", "__dict__")

    def __init__(self, game: AgonGame, inner: agon.State) -> None:
        super().__init__(game)
        self.agon_state = inner
        self._synced = 0

    @property
    def agon_state(self) -> agon.State:
        """The Agon state this state plays."""
        return self._s

    @agon_state.setter
    def agon_state(self, inner: agon.State) -> None:
        self._s = inner
        # Plays the decision or chance outcome ``action``; raises ``agon.AgonError``
        # (naming the legal ids) if it is not legal here.
        self.apply_action = inner.apply
        self.is_chance_node = inner.is_chance_node
        self.__dict__["agon_state"] = inner

    # The hot methods, which Python callers reach without going through C++.

    def current_player(self) -> int:
        return self._s.current_player()  # OpenSpiel's numbers (checked above)

    def is_terminal(self) -> bool:
        return self._s.is_terminal()

    def is_player_node(self) -> bool:
        return self._s.current_player() >= 0

    def is_simultaneous_node(self) -> bool:
        return False

    def is_initial_state(self) -> bool:
        return self._s.ply() == 0

    def legal_actions(self, player: Optional[int] = None) -> List[int]:
        """As OpenSpiel's ``LegalActions``: for the player to move (the chance player,
        -1, at a chance node, whose actions are the outcomes), or with no ``player``, what
        it may play; for any other player, and once the game is over, nothing."""
        state = self._s
        if player is None or player == state.current_player():
            return state.legal_actions()
        return []

    def chance_outcomes(self) -> List[Tuple[int, float]]:
        return self._s.chance_outcome_actions()

    def clone(self) -> "AgonState":
        # OpenSpiel's record of the copy starts empty: the whole history is to be written.
        return AgonState(self.get_game(), self._s.clone())

    def child(self, action: int) -> "AgonState":
        copy = self.clone()
        copy.apply_action(action)
        return copy

    def history(self) -> List[int]:
        return [action for _, action in self._s._id_history()]

    def history_str(self) -> str:
        return ", ".join(str(action) for action in self.history())

    def move_number(self) -> int:
        return self._s.ply()

    def returns(self) -> List[float]:
        return self._s.returns()

    # What reads OpenSpiel's record of the history: brought up to date first.

    def full_history(self) -> List[Any]:
        self._sync()
        return pyspiel.State.full_history(self)

    def serialize(self) -> str:
        self._sync()
        return pyspiel.State.serialize(self)

    def __reduce__(self) -> Tuple[Any, Tuple[AgonGame, str]]:
        """Pickles as OpenSpiel serializes the state, with its game."""
        return (_load_state, (self.get_game(), self.serialize()))

    # OpenSpiel's C++ side calls these.

    def _legal_actions(self, player: int) -> List[int]:
        self._sync()
        return self._s.legal_actions()

    def _apply_action(self, action: int) -> None:
        self._sync()
        self._s.apply(action)
        self._synced += 1  # C++ records the move once this returns

    def _sync(self) -> None:
        """Writes the plies applied from Python into OpenSpiel's record of the history.

        Each is recorded by OpenSpiel's own ``ApplyAction``, with the player who made it,
        while the Agon state, which has played it already, is left as it is: for the
        call, the instance's ``current_player`` and ``_apply_action`` (which C++ calls
        back) are replaced by ones that answer the recorded player and do nothing.
        """
        if self._synced == self._s.ply():
            return
        pending = self._s._id_history(self._synced)
        self._synced += len(pending)
        self._apply_action = _recorded
        try:
            for player, action in pending:
                self.current_player = lambda player=player: player
                pyspiel.State.apply_action(self, action)
        finally:
            del self.current_player
            del self._apply_action

    def _action_to_string(self, player: int, action: int) -> str:
        # Notation names a move in its position: an id not legal here is told as a number.
        try:
            return self._s.action_to_move(int(action))
        except agon.AgonError:
            return f"action {action}"

    def __str__(self) -> str:
        return str(self._s)


def _recorded(action: int) -> None:
    """``_apply_action`` while :meth:`AgonState._sync` writes a ply that the Agon state
    has played already: nothing to do."""
    del action


class BoardObserver:
    """OpenSpiel's observer of an Agon state: the board as text (after the history of
    actions, with perfect recall) and the observation tensor of ``shape``, the game's
    encoding made dense (see the module's docs).

    ``tensor`` is flat, as OpenSpiel reads it; ``dict["observation"]`` is the same memory
    in the 3-D shape. ``set_from`` writes into them in place, making no new array.
    """

    def __init__(
        self,
        params: Optional[Dict[str, Any]],
        recall: bool = False,
        shape: Tuple[int, int, int] = (0, 0, 0),
    ) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.recall = recall
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict: Dict[str, np.ndarray] = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: AgonState, player: int) -> None:
        """Writes ``player``'s observation tensor of ``state`` into ``tensor``."""
        state.agon_state.write_observation_tensor(player, self.tensor)

    def string_from(self, state: AgonState, player: int) -> str:
        board = state.agon_state.observation_string(player)
        # Perfect recall adds only what every player saw: the history is public.
        return f"{state.history()}\n{board}" if self.recall else board


class AgonBot(pyspiel.Bot):
    """An Agon agent playing as an OpenSpiel bot on an ``agon_*`` game.

    ``AgonBot(game, "mcts:iters=1000", seed=1)``: each ``step`` searches the state with
    the agent (its random stream seeded by ``seed`` and going on from move to move) and
    returns the chosen action id.
    """

    def __init__(self, game: AgonGame, spec: str, seed: int = 0) -> None:
        super().__init__()
        self.agent = agon.agent(spec, game.agon_game, seed=seed)

    def step(self, state: AgonState) -> int:
        return self.agent.choose(state.agon_state).action

    def restart_at(self, state: AgonState) -> None:
        del state

    def inform_action(self, state: AgonState, player_id: int, action: int) -> None:
        del state, player_id, action


def _register() -> Dict[str, pyspiel.GameType]:
    types = {}
    registered = set(pyspiel.registered_names())
    for info in agon.games():
        game_type = _game_type(info)
        types[info.name] = game_type
        if game_type.short_name in registered:
            continue  # imported before (a reload): the class registered then stays
        cls = type(
            f"Agon_{info.name}",
            (AgonGame,),
            {"AGON_NAME": info.name, "__doc__": f"Agon's {info.name} in OpenSpiel."},
        )
        globals()[cls.__name__] = cls  # findable by name, as a class defined here is
        pyspiel.register_game(game_type, cls)
    return types


_TYPES = _register()

NAMES = [PREFIX + name for name in _TYPES]
"""The OpenSpiel names of Agon's games, in Agon's listing order."""
