"""The observation and information-state tensors of Agon's games inside OpenSpiel, and
OpenSpiel's ``rl_environment`` running on every game."""

import os
import random

import numpy as np
import pytest

import agon

if os.environ.get("CI"):
    import pyspiel  # CI installs OpenSpiel: its absence is a failure there
else:
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed")
import agon.openspiel  # noqa: E402  (registers the games)
from open_spiel.python import rl_environment  # noqa: E402


def openspiel_name(spec: str) -> str:
    """`apv:max_turns=16` as OpenSpiel writes it: `agon_apv(max_turns=16)`."""
    name, _, params = spec.partition(":")
    return f"agon_{name}({params})" if params else f"agon_{name}"


def test_openspiels_tensors_are_agons(short_spec):
    game = pyspiel.load_game(openspiel_name(short_spec))
    native = agon.load_game(short_spec)
    kind = game.get_type()
    assert kind.provides_observation_tensor and kind.provides_information_state_tensor
    shape = list(native.observation_tensor_shape())
    assert game.observation_tensor_shape() == shape
    assert game.information_state_tensor_shape() == shape
    assert game.observation_tensor_size() == int(np.prod(shape))
    rng = random.Random(5)
    state = game.new_initial_state()
    while True:
        for player in (0, 1):
            want = state.agon_state.observation_tensor(player).reshape(-1)
            seen = np.array(state.observation_tensor(player), np.float32)
            np.testing.assert_array_equal(seen, want)
            np.testing.assert_array_equal(
                np.array(state.information_state_tensor(player), np.float32), want
            )
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))


def test_the_observers_dict_is_the_tensor_in_its_shape():
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("agon_connect4")
    observation = make_observation(game)
    state = game.new_initial_state()
    state.apply_action(3)
    observation.set_from(state, 1)
    assert list(observation.dict) == ["observation"]
    assert observation.dict["observation"].shape == (3, 6, 7)
    want = state.agon_state.observation_tensor(1)
    np.testing.assert_array_equal(observation.dict["observation"], want)
    assert np.shares_memory(observation.dict["observation"], observation.tensor)


def test_rl_environment_plays_random_episodes(short_spec):
    game = pyspiel.load_game(openspiel_name(short_spec))
    size = game.observation_tensor_size()
    env = rl_environment.Environment(
        game, chance_event_sampler=rl_environment.ChanceEventSampler(seed=11)
    )
    assert env.observation_spec()["info_state"] == (size,)
    rng = np.random.RandomState(11)
    for _ in range(3):
        step = env.reset()
        steps = 0
        while not step.last():
            player = step.observations["current_player"]
            for info_state in step.observations["info_state"]:
                assert len(info_state) == size
            step = env.step([rng.choice(step.observations["legal_actions"][player])])
            steps += 1
        assert steps > 0
        assert step.rewards[0] + step.rewards[1] == 0
        assert all(len(info) == size for info in step.observations["info_state"])


def test_the_learning_run_writes_a_reproducible_curve(tmp_path):
    # experiments/python/qlearning.py, shortened: the same seed gives the same curve.
    import csv
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "experiments" / "python" / "qlearning.py"
    curves = []
    for run in ("one", "two"):
        out = tmp_path / run
        subprocess.run(
            [sys.executable, str(script), "--game", "agon_pig(target=8)", "--episodes", "300",
             "--eval-every", "150", "--eval-games", "20", "--seed", "4", "--out", str(out)],
            check=True,
            capture_output=True,
        )
        with open(out / "curve.csv", newline="") as f:
            rows = [{k: v for k, v in row.items() if k != "seconds"} for row in csv.DictReader(f)]
        assert [r["episodes"] for r in rows] == ["0", "150", "300"]
        for row in rows:
            for opponent in ("random", "greedy"):
                counts = [int(row[f"{opponent}_{c}"]) for c in ("wins", "draws", "losses")]
                assert sum(counts) == int(row[f"{opponent}_games"]) == 20
        assert (out / "curve.svg").read_text().startswith("<svg")
        assert (out / "reference.csv").exists()
        curves.append(rows)
    assert curves[0] == curves[1]
    assert int(curves[0][-1]["states"]) > 0
