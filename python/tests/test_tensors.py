"""Observation tensors: the bindings' dense form of each game's encoding (the tensors
OpenSpiel reads through the adapter are tested in test_openspiel_tensors.py)."""

import random

import numpy as np
import pytest

import agon

from conftest import SHORT


def dense(encoding: dict, features: list, scalars: list) -> np.ndarray:
    """The dense tensor written out in Python from the engine's sparse form, as the
    bindings document it: plane k is 1 at each active feature k*cells + cell, then each
    scalar is a constant plane of value / max."""
    rows, cols = encoding["rows"], encoding["cols"]
    planes = len(encoding["planes"])
    out = np.zeros((planes + len(encoding["scalars"]), rows * cols), np.float32)
    for feature in features:
        out[feature // (rows * cols), feature % (rows * cols)] = 1.0
    for k, (value, scalar) in enumerate(zip(scalars, encoding["scalars"])):
        out[planes + k, :] = np.float32(value) / np.float32(scalar["max"])
    return out.reshape(planes + len(encoding["scalars"]), rows, cols)


def random_states(spec: str, seed: int):
    """Every state of one random game of `spec`, chance nodes and the end included."""
    rng = random.Random(seed)
    state = agon.load_game(spec).new_initial_state()
    while True:
        yield state
        if state.is_terminal():
            return
        state.apply(rng.choice(state.legal_actions()))


def test_every_state_has_a_tensor_of_the_declared_shape_made_of_its_features(short_spec):
    game = agon.load_game(short_spec)
    encoding = game.encoding()
    shape = game.observation_tensor_shape()
    assert shape == (
        len(encoding["planes"]) + len(encoding["scalars"]),
        encoding["rows"],
        encoding["cols"],
    )
    assert encoding["shape"] == shape
    kinds = set()
    for seed in range(3):
        for state in random_states(short_spec, seed):
            kinds.add(state.current_player())
            for player in (0, 1):
                tensor = state.observation_tensor(player)
                assert tensor.shape == shape and tensor.dtype == np.float32
                features, scalars = state.features(player), state.scalars(player)
                assert features == sorted(set(features))
                assert all(0 <= s <= d["max"] for s, d in zip(scalars, encoding["scalars"]))
                assert len(scalars) == len(encoding["scalars"])
                np.testing.assert_array_equal(tensor, dense(encoding, features, scalars))
                assert tensor.min() >= 0.0 and tensor.max() <= 1.0
    # Decisions of both seats and the end were seen, and chance wherever the game has it.
    has_chance = {g.name: g.has_chance for g in agon.games()}[game.name]
    assert kinds == ({0, 1, agon.TERMINAL} | ({agon.CHANCE} if has_chance else set()))


def test_connect_fours_tensor_is_its_stones_and_the_mover_from_each_view():
    game = agon.load_game("connect4")
    encoding = game.encoding()
    assert encoding == {
        "id": "connect4/1",
        "rows": 6,
        "cols": 7,
        "planes": [
            {"name": "mine", "meaning": "a stone of the view's seat"},
            {"name": "theirs", "meaning": "a stone of the other seat"},
        ],
        "scalars": [
            {
                "name": "to-move",
                "meaning": "1 if the view's seat moves next, else 0",
                "max": 1,
            }
        ],
        "shape": (3, 6, 7),
    }
    state = game.new_initial_state()
    state.apply("d")
    state.apply("d")
    state.apply("e")
    # Seat 0 has d1 and e1 (row 0 is the bottom), seat 1 has d2; seat 1 moves next.
    assert state.features(0) == [3, 4, 42 + 7 + 3]
    assert state.features(1) == [7 + 3, 42 + 3, 42 + 4]
    assert state.scalars(0) == [0] and state.scalars(1) == [1]
    seat0 = np.zeros((3, 6, 7), np.float32)
    seat0[0, 0, 3] = seat0[0, 0, 4] = seat0[1, 1, 3] = 1.0
    np.testing.assert_array_equal(state.observation_tensor(0), seat0)
    seat1 = np.zeros((3, 6, 7), np.float32)
    seat1[0, 1, 3] = seat1[1, 0, 3] = seat1[1, 0, 4] = 1.0
    seat1[2] = 1.0
    np.testing.assert_array_equal(state.observation_tensor(1), seat1)


def test_pigs_scalars_are_scaled_by_their_maxima():
    game = agon.load_game("pig:target=20")
    assert game.observation_tensor_shape() == (6, 1, 1)
    assert [s["max"] for s in game.encoding()["scalars"]] == [25, 25, 25, 1, 1, 1000]
    state = game.new_initial_state()
    for move in ["roll", "4", "hold"]:
        state.apply(move)
    # Seat 0 banked 4 in one turn of two decisions; seat 1 is to move.
    assert state.scalars(0) == [4, 0, 0, 0, 0, 2]
    assert state.scalars(1) == [0, 4, 0, 1, 0, 2]
    want = np.array([0, 4 / 25, 0, 1, 0, 2 / 1000], np.float32).reshape(6, 1, 1)
    np.testing.assert_array_equal(state.observation_tensor(1), want)


def test_two_positions_have_different_tensors(short_spec):
    state = agon.load_game(short_spec).new_initial_state()
    while state.is_chance_node():
        state.apply(state.legal_actions()[0])
    first, last = state.clone(), state.clone()
    first.apply(state.legal_actions()[0])
    last.apply(state.legal_actions()[-1])
    for player in (0, 1):
        one, other = first.observation_tensor(player), last.observation_tensor(player)
        assert not np.array_equal(one, other)


def test_hexstrats_face_down_terrain_is_never_shown():
    # A face-down tile's type is not in the state at all (each reveal is drawn from the
    # bag when it happens), so no two states differ in it alone. What is checked: the
    # tensor never names a type where a tile is face down, and at a reveal the cell is
    # shown face down with no type, each outcome then showing its own type there.
    game = agon.load_game(SHORT["hexstrat"])
    names = [p["name"] for p in game.encoding()["planes"]]
    terrain = [names.index(t) for t in ("plains", "forest", "mountain")]
    face_down = names.index("face-down")
    moving = [k for k, name in enumerate(names) if name.endswith("-reveal")]
    reveals = 0
    for seed in range(4):
        for state in random_states(SHORT["hexstrat"], seed):
            for player in (0, 1):
                tensor = state.observation_tensor(player)
                hidden = tensor[face_down] == 1.0
                assert hidden.any()
                assert not tensor[terrain][:, hidden].any()
            if not state.is_chance_node():
                continue
            before = state.observation_tensor(0)
            [(row, col)] = np.argwhere(before[moving].any(axis=0))
            assert before[face_down, row, col] == 1.0
            shown = []
            for outcome in state.legal_actions():
                child = state.clone()
                child.apply(outcome)
                after = child.observation_tensor(0)
                assert after[face_down, row, col] == 0.0
                [kind] = np.flatnonzero(after[terrain, row, col])
                shown.append(kind)
            assert shown == list(range(len(shown))) and len(shown) > 1
            reveals += 1
    assert reveals > 0


def test_a_callers_buffer_is_filled_in_place():
    game = agon.load_game(SHORT["apv"])
    state = game.new_initial_state()
    state.play_random(seed=3)
    size = int(np.prod(game.observation_tensor_shape()))
    flat, shaped = np.full(size, 7.0, np.float32), np.full((15, 9, 9), 7.0, np.float32)
    for out in (flat, shaped):
        for player in (0, 1):
            state.write_observation_tensor(player, out)
            want = state.observation_tensor(player)
            np.testing.assert_array_equal(out.reshape(-1), want.reshape(-1))
    wanted = (
        "it must be a writable C-contiguous float32 numpy array of 1215 values "
        "(15×9×9, any shape)"
    )
    bad = {
        "out has 1214 values: ": np.zeros(size - 1, np.float32),
        "out is an array of float64: ": np.zeros(size),
        "out is a list: ": [0.0] * size,
        "out is not C-contiguous: ": np.zeros((size, 2), np.float32)[:, 0],
    }
    for message, out in bad.items():
        with pytest.raises(agon.AgonError) as caught:
            state.write_observation_tensor(0, out)
        assert str(caught.value) == message + wanted
    frozen = np.zeros(size, np.float32)
    frozen.flags.writeable = False
    with pytest.raises(agon.AgonError) as caught:
        state.write_observation_tensor(0, frozen)
    assert str(caught.value) == "out is read-only or in use: " + wanted


@pytest.mark.parametrize("player", [-1, 2, 2**70, "0", None, 0.0])
def test_a_bad_player_is_refused_naming_the_players(player):
    state = agon.load_game("connect4").new_initial_state()
    buffer = np.zeros(126, np.float32)
    calls = [
        lambda: state.observation_tensor(player),
        lambda: state.write_observation_tensor(player, buffer),
        lambda: state.features(player),
        lambda: state.scalars(player),
    ]
    for call in calls:
        with pytest.raises(agon.AgonError) as caught:
            call()
        assert str(caught.value) == f"player {player!r}: the players are 0 and 1"
