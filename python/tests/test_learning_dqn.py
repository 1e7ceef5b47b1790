"""experiments/python/dqn.py, shortened: OpenSpiel's JAX DQN learning an Agon game.

The script needs JAX and the libraries OpenSpiel's ``open_spiel.python.jax.dqn`` imports
(flax, optax, chex, etils, orbax), which the bindings' test extra does not install, so
without them these tests skip (CI does not install them). To run them, install
``experiments/python/requirements-learn.txt`` into the environment that has the
bindings and OpenSpiel:

    pip install -r experiments/python/requirements-learn.txt
    python -m pytest -q python/tests/test_learning_dqn.py
"""

import csv
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

NEEDED = ("jax", "flax", "optax", "chex", "etils", "orbax.checkpoint")


def _missing() -> list:
    missing = []
    for name in NEEDED:
        try:
            if importlib.util.find_spec(name) is None:
                missing.append(name)
        except ModuleNotFoundError:  # a parent package ("orbax") is absent
            missing.append(name)
    return missing


pytestmark = pytest.mark.skipif(
    bool(_missing()), reason=f"the DQN run needs {', '.join(_missing())} (not installed)"
)

SCRIPT = Path(__file__).resolve().parents[2] / "experiments" / "python" / "dqn.py"

# A few hundred episodes of Invector 4×3 (games of about 16 decisions), with a small
# network and an early start to the updates, so that the network does learn in the run.
SHORT = [
    "--game", "agon_invector(width=4,height=3)", "--episodes", "200", "--eval-every", "100",
    "--eval-games", "20", "--hidden", "32", "--min-buffer", "200", "--batch-size", "32",
    "--decisions-per-episode", "18", "--explore", "1", "--seed", "5",
]


def _run(args: list) -> subprocess.CompletedProcess:
    env = dict(os.environ, XLA_FLAGS="--xla_cpu_multi_thread_eigen=false")
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, env=env
    )


def test_the_dqn_run_writes_a_reproducible_curve(tmp_path):
    curves = []
    for run in ("one", "two"):
        out = tmp_path / run
        result = _run([*SHORT, "--out", str(out)])
        assert result.returncode == 0, result.stderr
        with open(out / "curve.csv", newline="") as f:
            rows = [{k: v for k, v in row.items() if k != "seconds"} for row in csv.DictReader(f)]
        assert [r["episodes"] for r in rows] == ["0", "100", "200"]
        for row in rows:
            for opponent in ("random", "greedy"):
                counts = [int(row[f"{opponent}_{c}"]) for c in ("wins", "draws", "losses")]
                assert sum(counts) == int(row[f"{opponent}_games"]) == 20
        # Before training: no steps, full exploration, no update yet.
        assert (rows[0]["decisions"], rows[0]["steps"], rows[0]["epsilon"], rows[0]["loss"]) == (
            "0", "0", "1.0000", "")
        # Each game's decisions, plus one closing step per seat that acted.
        assert int(rows[2]["steps"]) > int(rows[2]["decisions"]) > int(rows[1]["decisions"]) > 0
        assert float(rows[2]["epsilon"]) < float(rows[1]["epsilon"]) < 1.0
        assert rows[2]["loss"] != ""  # the network was updated
        assert (out / "curve.svg").read_text().startswith("<svg")
        with open(out / "reference.csv", newline="") as f:
            (reference,) = list(csv.DictReader(f))
        assert (reference["player"], reference["opponent"], reference["games"]) == (
            "greedy", "random", "20")
        curves.append(rows)
    # The same seed on the same machine: the same curve, network and all.
    assert curves[0] == curves[1]


def test_a_bad_layer_list_is_one_clear_error(tmp_path):
    result = _run(["--hidden", "64,x", "--out", str(tmp_path)])
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1] == (
        "dqn.py: error: --hidden '64,x': expected positive layer sizes separated by commas,"
        " like 128,128"
    )
