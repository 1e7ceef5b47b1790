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
