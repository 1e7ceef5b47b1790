"""Agon's games inside OpenSpiel: its own checks and its algorithms on every game."""

import os

import numpy as np
import pytest

if os.environ.get("CI"):
    import pyspiel  # CI installs OpenSpiel: its absence is a failure there
else:
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed")
import agon.openspiel  # noqa: E402  (registers the games)
from open_spiel.python.algorithms import evaluate_bots, mcts  # noqa: E402

from conftest import SHORT  # noqa: E402


def openspiel_name(spec):
    """`apv:max_turns=16` as OpenSpiel writes it: `agon_apv(max_turns=16)`."""
    name, _, params = spec.partition(":")
    return f"agon_{name}({params})" if params else f"agon_{name}"


def test_every_game_is_registered():
    assert agon.openspiel.NAMES == [f"agon_{g.name}" for g in agon.games()]
    for name in agon.openspiel.NAMES:
        assert name in pyspiel.registered_names()


def test_the_declared_sizes_are_agons(short_spec):
    game = pyspiel.load_game(openspiel_name(short_spec))
    native = agon.load_game(short_spec)
    assert game.num_distinct_actions() == native.num_distinct_actions()
    assert game.max_chance_outcomes() == native.max_chance_outcomes()
    assert game.max_game_length() == native.max_game_length()
    assert game.num_players() == 2
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    chance = agon.games()[[g.name for g in agon.games()].index(native.name)].has_chance
    expected = (
        pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        if chance
        else pyspiel.GameType.ChanceMode.DETERMINISTIC
    )
    assert kind.chance_mode == expected


def test_parameters_pass_through_with_agons_defaults():
    game = pyspiel.load_game("agon_pig(die=4,horizon=50)")
    # The length counts decisions only, as OpenSpiel's own Pig counts it.
    assert game.max_chance_outcomes() == 4 and game.max_game_length() == 50
    native = pyspiel.load_game("pig(diceoutcomes=4,horizon=50)")
    assert native.max_game_length() == game.max_game_length()
    defaults = pyspiel.load_game("agon_invector").get_parameters()
    # Every parameter with its default, the designer's knobs included.
    assert defaults == {
        "handicap": 0,
        "height": 7,
        "hole": 0,
        "lose_at": 0,
        "pie": True,
        "stride": 1,
        "width": 8,
    }
    with pytest.raises(Exception, match="(?i)unknown parameter"):
        pyspiel.load_game("agon_connect4(size=3)")


def test_openspiels_random_simulation_test_passes(short_spec):
    game = pyspiel.load_game(openspiel_name(short_spec))
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)


@pytest.mark.parametrize("name", [f"agon_{g.name}" for g in agon.games()])
def test_openspiels_random_simulation_test_passes_at_full_length(name):
    # Every game with its default parameters: whole games up to its length bound.
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=1, serialize=False, verbose=False)


def test_openspiels_mcts_plays_agons_mcts_through_evaluate_bots(short_spec):
    game = pyspiel.load_game(openspiel_name(short_spec))
    rng = np.random.RandomState(7)
    theirs = mcts.MCTSBot(game, 2.0, 8, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    ours = agon.openspiel.AgonBot(game, "mcts:iters=50", seed=7)
    for bots in ([ours, theirs], [theirs, ours]):
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
        assert len(returns) == 2 and returns[0] + returns[1] == 0


def test_a_state_driven_by_openspiel_is_agons_state():
    game = pyspiel.load_game("agon_connect4")
    state = game.new_initial_state()
    for action in [3, 3, 4, 4, 5, 5]:
        assert action in state.legal_actions()
        state.apply_action(action)
    assert state.action_to_string(0, 2) == "c"  # the drop into column c
    state.apply_action(6)
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    assert state.agon_state.end_reason() == "four-in-a-row"
    assert state.history() == [3, 3, 4, 4, 5, 5, 6]
    assert state.action_to_string(0, 2) == "action 2"  # nothing is legal any more


def test_the_observation_is_the_board_and_the_information_state_adds_the_history():
    game = pyspiel.load_game("agon_connect4")
    state = game.new_initial_state()
    state.apply_action(3)
    board = str(state.agon_state)
    for player in (0, 1):
        assert state.observation_string(player) == board
        assert state.information_state_string(player) == f"[3]\n{board}"


def cpp_history(state):
    """The history as OpenSpiel's C++ side records it (not the adapter's Python view)."""
    return pyspiel.State.history(state)


def full_history(state):
    """`state.full_history()` as (player, action) pairs."""
    return [(p.player, p.action) for p in state.full_history()]


def test_moves_applied_from_python_reach_openspiels_own_history():
    game = pyspiel.load_game("agon_pig(target=30)")
    state = game.new_initial_state()
    for action in [0, 3, 0, 5, 1]:  # roll, a 4, roll, a 6, hold
        state.apply_action(action)
    assert state.history() == [0, 3, 0, 5, 1] and state.move_number() == 5
    assert state.history_str() == "0, 3, 0, 5, 1" and not state.is_initial_state()
    # Applied from Python, the moves are not yet in C++'s record; reading it from Python
    # writes them, with who made each.
    assert cpp_history(state) == []
    assert full_history(state) == [(0, 0), (-1, 3), (0, 0), (-1, 5), (0, 1)]
    assert cpp_history(state) == [0, 3, 0, 5, 1]
    # C++'s ApplyAction writes the pending moves first, then its own.
    state.apply_action(0)
    state.apply_action_with_legality_check(2)
    assert cpp_history(state) == state.history() == [0, 3, 0, 5, 1, 0, 2]
    # Clones and children: C++'s and Python's, each with the whole history.
    for copy in [state.clone(), state.child(0), pyspiel.State.clone(state), pyspiel.State.child(state, 0)]:
        assert copy.history()[:7] == state.history()
        assert full_history(copy)[:7] == full_history(state)
        assert copy.agon_state.history()[:7] == state.agon_state.history()
    child = state.child(1)  # hold: the other seat decides
    assert child.history() == state.history() + [1] and cpp_history(child) == []
    assert pyspiel.State.legal_actions(child) == [0, 1]  # C++ asks: written
    assert cpp_history(child) == child.history()
    # A Python clone serializes to the same state.
    copy = state.clone()
    copy.apply_action(1)
    restored = game.deserialize_state(copy.serialize())
    assert restored.history() == cpp_history(restored) == copy.history()
    assert str(restored) == str(copy) and restored.agon_state == copy.agon_state
    # OpenSpiel's C++ algorithms play on from the moves applied from Python.
    played = game.new_initial_state()
    for action in [0, 3, 0, 4]:
        played.apply_action(action)
    bots = [pyspiel.make_uniform_random_bot(seat, 3 + seat) for seat in (0, 1)]
    returns = pyspiel.evaluate_bots(played, bots, 5)
    assert played.is_terminal() and returns == played.returns()
    assert cpp_history(played) == played.history() and played.history()[:4] == [0, 3, 0, 4]
    # Serialized by C++ before the pending moves are written: consistent all the same.
    pending = state.clone()
    pending.apply_action(0)
    restored = game.deserialize_state(pyspiel.State.serialize(pending))
    assert restored.history() == pending.history() and str(restored) == str(pending)


def test_the_hot_methods_answer_as_openspiels():
    state = pyspiel.load_game("agon_pig").new_initial_state()
    assert state.is_initial_state() and state.is_player_node() and not state.is_simultaneous_node()
    assert state.legal_actions() == state.legal_actions(0) == [0, 1]
    # As OpenSpiel's C++ games: nothing for anyone but the player to move.
    assert state.legal_actions(1) == state.legal_actions(-1) == []
    state.apply_action(0)
    assert state.is_chance_node() and not state.is_player_node() and state.current_player() == -1
    assert state.chance_outcomes() == [(face, 1 / 6) for face in range(6)]
    assert state.legal_actions() == state.legal_actions(-1) == [0, 1, 2, 3, 4, 5]
    assert state.legal_actions(0) == state.legal_actions(1) == []
    assert pyspiel.State.legal_actions(state) == state.legal_actions()
    with pytest.raises(agon.AgonError, match=r"^6 is not the id of an outcome"):
        state.apply_action(6)
    state.apply_action(np.int64(0))  # a 1: the turn passes
    assert state.current_player() == 1 and state.history() == [0, 0]


def test_the_length_bound_counts_decisions_as_openspiel_does(short_spec):
    game = pyspiel.load_game(openspiel_name(short_spec))
    bound = game.max_game_length()
    assert bound == agon.load_game(short_spec).max_game_length()
    rng = np.random.RandomState(3)
    for _ in range(10):
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(actions, p=probs)))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
                decisions += 1
        assert decisions <= bound


def test_games_and_states_pickle_and_go_to_worker_processes():
    import multiprocessing
    import pickle
    from operator import methodcaller

    game = pyspiel.load_game("agon_pig(die=4,target=30)")
    again = pickle.loads(pickle.dumps(game))
    assert again == game and type(again) is type(game) is agon.openspiel.Agon_pig
    assert again.get_parameters() == game.get_parameters() and again.max_chance_outcomes() == 4
    state = game.new_initial_state()
    for action in [0, 3, 1]:
        state.apply_action(action)
    copy = pickle.loads(pickle.dumps(state))
    assert type(copy) is agon.openspiel.AgonState
    assert copy.history() == state.history() and str(copy) == str(state)
    assert copy.get_game() == game and copy.agon_state == state.agon_state
    # A fresh interpreter (spawn) loads them, registering the games on the way.
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        sizes = pool.map(methodcaller("max_chance_outcomes"), [game, again])
        states = pool.map(methodcaller("child", 0), [state])
    assert sizes == [4, 4]
    assert states[0].history() == [0, 3, 1, 0] and states[0].is_chance_node()
