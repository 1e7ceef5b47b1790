"""The `agon` command installed with the package (and `python -m agon`) is the command
line itself; Ctrl-C stops a run started from Python between games, keeping its folder
for --resume."""

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import agon

ROOT = Path(__file__).resolve().parents[2]
# The console script pip installs next to this interpreter.
SCRIPT = Path(sys.executable).parent / "agon"


def command(*args, entry="script", cwd=None, stdin=subprocess.DEVNULL):
    """Runs the package's `agon` (the console script, `python -m agon`, or the native
    binary at the path `entry`) with `args`; returns the finished process."""
    if entry == "script":
        argv = [str(SCRIPT), *args]
    elif entry == "module":
        argv = [sys.executable, "-m", "agon", *args]
    else:
        argv = [str(entry), *args]
    return subprocess.run(argv, capture_output=True, cwd=cwd, stdin=stdin, timeout=120)


def native_binary():
    """The native `agon` that `cargo test` builds from this checkout (target/debug/agon),
    or `AGON_BINARY` when set. A release binary is not taken: it is built only on demand,
    so it may be older than the package. Without a binary the comparison is skipped,
    except in CI (`CI=true`), where `cargo test` has just built it."""
    path = Path(os.environ.get("AGON_BINARY", ROOT / "target" / "debug" / "agon"))
    return path if path.is_file() and os.access(path, os.X_OK) else None


def test_the_command_is_installed_with_the_package():
    assert SCRIPT.is_file(), "pip installs the agon command beside the interpreter"


@pytest.mark.parametrize("entry", ["script", "module"])
def test_the_command_prints_what_agon_run_returns(entry, tmp_path):
    for args in [["games"], ["perft", "--game", "connect4", "--depth", "3"], ["--version"], ["--help"],
                 ["tournament", "--help"]]:
        done = command(*args, entry=entry)
        assert done.returncode == 0, args
        assert done.stdout.decode() == agon.run(args).text, args
        # Perft's speed goes to standard error, as the binary's does.
        expected = rb"nps \d+\n" if args[0] == "perft" else rb""
        assert re.fullmatch(expected, done.stderr), (args, done.stderr)


@pytest.mark.parametrize("entry", ["script", "module"])
def test_bad_input_is_one_line_and_exit_code_2(entry):
    done = command("perft", "--game", "nope", "--depth", "2", entry=entry)
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.decode() == (
        'error: unknown game "nope" (valid: invector, connect4, pig, apv, romgon, threewill, hexstrat)\n'
    )
    done = command("tournamnet", entry=entry)
    assert done.returncode == 2
    assert done.stderr.decode().startswith("error: unrecognized subcommand 'tournamnet'")
    assert done.stderr.count(b"\n") == 1
    with pytest.raises(agon.AgonError, match='^unknown game "nope"'):
        agon.run(["perft", "--game", "nope", "--depth", "2"])


def test_a_run_from_the_command_records_agon_and_its_arguments(tmp_path):
    done = command("tournament", "--game", "connect4", "--agents", "random", "greedy", "--games", "2",
                   "--seed", "3", "--out", "run", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().endswith("report.html in run\n")
    meta = (tmp_path / "run" / "meta.csv").read_text()
    assert "\ncommand,agon tournament --game connect4 --agents random greedy --games 2 --seed 3 --out run\n" in meta


def test_serve_speaks_on_standard_input_and_output():
    talk = b"ugi\nisready\nposition startpos moves d\ngo\nquit\n"
    done = subprocess.run([str(SCRIPT), "serve", "--agent", "ab:depth=3", "--game", "connect4"],
                          input=talk, capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.decode().splitlines()
    assert lines[0].startswith("id name ") and "ugiok" in lines and "readyok" in lines
    assert re.fullmatch(r"bestmove [a-g]", lines[-1]), lines


def test_the_command_is_byte_for_byte_the_native_binary(tmp_path):
    binary = native_binary()
    if binary is None:
        assert os.environ.get("CI") != "true", "CI runs cargo test first: target/debug/agon must exist"
        pytest.skip("no native agon binary: run cargo test first, or set AGON_BINARY")
    for args in [["games"], ["agents"], ["perft", "--game", "pig", "--depth", "2"], ["--help"], ["--version"],
                 ["perft", "--game", "nope", "--depth", "1"], ["tournamnet"], ["tournament"]]:
        ours, theirs = command(*args), command(*args, entry=binary)
        assert ours.returncode == theirs.returncode, args
        assert ours.stdout == theirs.stdout, args
        if args[0] != "perft" or ours.returncode != 0:  # perft's speed line differs
            assert ours.stderr == theirs.stderr, args
    for entry in ["script", binary]:
        done = command("tournament", "--game", "connect4", "--agents", "random", "greedy", "--games", "4",
                       "--seed", "3", "--threads", "1", "--out", str(tmp_path / Path(str(entry)).name),
                       entry=entry)
        assert done.returncode == 0, done.stderr
    a, b = tmp_path / "script", tmp_path / binary.name
    for name in ["games.csv", "summary.csv"]:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


# A tournament of about a tenth of a second a game, long enough to be stopped midway.
SLOW = ["tournament", "--game", "connect4", "--agents", "ab:depth=4", "mcts:iters=200", "--games", "40",
        "--seed", "11", "--threads", "2"]


def complete_rows(path: Path) -> int:
    """Complete rows of a games.csv (its header left out) right now."""
    try:
        return max(path.read_bytes().count(b"\n") - 1, 0)
    except FileNotFoundError:
        return 0


def test_ctrl_c_stops_a_run_between_games_and_resume_finishes_it(tmp_path):
    whole = tmp_path / "whole"
    agon.run([*SLOW, "--out", str(whole)])
    stopped = tmp_path / "stopped"
    go = tmp_path / "go"
    # The writer's test hook holds the run after its third row until `go` exists, so
    # that Ctrl-C comes while games are left, at no mercy of a clock.
    # A shell's background job starts with Ctrl-C ignored, and Python then sets no handler
    # of its own: the child sets Python's, so that it sees the signal however it started.
    script = (
        "import agon, signal, sys\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "try:\n"
        f"    agon.run({[*SLOW, '--out', str(stopped)]!r})\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted'); sys.exit(0)\n"
        "print('finished')\n"
    )
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             env={**os.environ, "AGON_TEST_PAUSE": f"3:{go}"})
    deadline = time.monotonic() + 120
    while complete_rows(stopped / "games.csv") < 3:
        assert child.poll() is None, child.communicate()
        assert time.monotonic() < deadline, "the run did not reach its pause"
        time.sleep(0.01)
    child.send_signal(signal.SIGINT)
    # The request is seen within a fraction of a second; then the writer may go on.
    time.sleep(0.5)
    go.touch()
    out, err = child.communicate(timeout=60)
    assert (child.returncode, out) == (0, b"interrupted\n"), err
    played = complete_rows(stopped / "games.csv")
    assert 3 <= played < 40, played
    assert not (stopped / "summary.csv").exists()
    assert (stopped / "games.csv").read_bytes() == b"".join(
        (whole / "games.csv").read_bytes().splitlines(keepends=True)[: played + 1]
    )
    # Without --resume the stopped run is refused; with it, it ends as the whole run.
    with pytest.raises(agon.AgonError, match=rf"holds this run unfinished \({played} of 40 games\); pass --resume"):
        agon.run([*SLOW, "--out", str(stopped)])
    resumed = agon.run([*SLOW, "--out", str(stopped), "--resume"])
    assert resumed.folder == stopped
    for name in ["games.csv", "summary.csv"]:
        assert (stopped / name).read_bytes() == (whole / name).read_bytes(), name


def test_ctrl_c_ends_the_command_as_it_ends_the_binary(tmp_path):
    out = tmp_path / "run"
    go = tmp_path / "go"
    child = subprocess.Popen([str(SCRIPT), *SLOW, "--out", str(out)], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, env={**os.environ, "AGON_TEST_PAUSE": f"3:{go}"})
    deadline = time.monotonic() + 120
    while complete_rows(out / "games.csv") < 3:
        assert child.poll() is None
        assert time.monotonic() < deadline, "the run did not reach its pause"
        time.sleep(0.01)
    child.send_signal(signal.SIGINT)
    # Ended by the signal at once, paused writer or not: the binary's default.
    assert child.wait(timeout=10) == -signal.SIGINT
    assert complete_rows(out / "games.csv") == 3
    assert not (out / "summary.csv").exists()
