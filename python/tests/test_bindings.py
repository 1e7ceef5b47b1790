"""The Python bindings against the rules, the command line and their own contracts."""

import copy
import pickle
import re
from fractions import Fraction
from pathlib import Path

import pytest

import agon
from conftest import SHORT


def test_every_game_is_listed_with_its_parameters():
    infos = agon.games()
    assert [g.name for g in infos] == list(SHORT)
    invector = infos[0]
    assert invector.has_chance is False
    width = next(p for p in invector.parameters if p["name"] == "width")
    assert width["kind"] == "integer 1..16" and width["default"] == "8"
    hexstrat = infos[-1]
    assert hexstrat.has_chance and hexstrat.has_hidden_information


def test_a_spec_is_made_canonical_and_checked_as_the_command_line_checks_it():
    game = agon.load_game("apv:orders=false")
    assert game.name == "apv"
    assert game.spec == "apv:limited_orders=false,max_turns=500,orders=false"
    assert game.parameters["orders"] == "false"
    with pytest.raises(agon.AgonError, match=r'^unknown game "chess" \(valid: invector, '):
        agon.load_game("chess")
    with pytest.raises(agon.AgonError, match=r'unknown parameter "w" \(valid: handicap, height, hole, lose_at, pie, stride, width\)'):
        agon.load_game("invector:w=5")
    with pytest.raises(ValueError):  # AgonError is a ValueError
        agon.load_game("invector:width=4,height=4")


def test_moves_play_by_notation_or_id_and_undo_restores_the_position(short_spec):
    game = agon.load_game(short_spec)
    state = game.new_initial_state()
    start_hash = state.hash()
    plies = 0
    while not state.is_terminal() and plies < 60:
        actions = state.legal_actions()
        assert actions == sorted(actions) and len(set(actions)) == len(actions)
        if state.is_chance_node():
            assert state.current_player() == agon.CHANCE
            assert state.legal_moves() == []
            outcomes = state.chance_outcomes(exact=True)
            assert sum(p for _, p in outcomes) == 1
            assert all(isinstance(p, Fraction) and p > 0 for _, p in outcomes)
            # By default the probabilities are floats, each the nearest to the exact one.
            assert state.chance_outcomes() == [(m, float(p)) for m, p in outcomes]
            exact = dict(state.chance_outcome_actions(exact=True))
            assert state.chance_outcome_actions() == [(a, float(p)) for a, p in exact.items()]
            ids = [a for a, _ in state.chance_outcome_actions()]
            assert ids == actions
            assert all(a < game.max_chance_outcomes() for a in ids)
            state.apply(ids[plies % len(ids)])
        else:
            assert state.current_player() in (0, 1)
            moves = state.legal_moves()
            assert sorted(state.move_to_action(m) for m in moves) == actions
            assert all(a < game.num_distinct_actions() for a in actions)
            move = moves[plies % len(moves)]
            assert state.action_to_move(state.move_to_action(move)) == move
            state.apply(move if plies % 2 else state.move_to_action(move))
        plies += 1
    assert state.ply() == plies == len(state.history())
    for _ in range(plies):
        state.undo()
    assert state.hash() == start_hash and state.history() == []
    with pytest.raises(agon.AgonError, match="nothing to undo"):
        state.undo()


def test_a_finished_game_has_returns_and_a_reason(short_spec):
    game = agon.load_game(short_spec)
    state = game.new_initial_state()
    plies = state.play_random(seed=7)
    assert state.is_terminal() and state.current_player() == agon.TERMINAL
    assert plies == state.ply() <= game.max_plies()
    returns = state.returns()
    assert returns[0] + returns[1] == 0 and returns[0] in (-1.0, 0.0, 1.0)
    assert state.end_reason()
    assert state.legal_actions() == [] and state.legal_moves() == []
    # The same seed plays the same game; the history replays to the same position.
    again = game.new_initial_state()
    again.play_random(seed=7)
    assert again.history() == state.history()
    replayed = game.new_initial_state()
    for move in state.history():
        replayed.apply(move)
    assert replayed.hash() == state.hash() and str(replayed) == str(state)


def decisions_made(game, moves):
    """How many of `moves`, played from the start of `game`, are decisions."""
    state = game.new_initial_state()
    made = 0
    for move in moves:
        made += not state.is_chance_node()
        state.apply(move)
    return made


def test_the_length_bounds_hold_along_random_games(short_spec):
    # max_game_length counts decisions only (as OpenSpiel does), max_plies chance too.
    game = agon.load_game(short_spec)
    assert game.max_game_length() <= game.max_plies()
    if not any(g.has_chance for g in agon.games() if g.name == game.name):
        assert game.max_game_length() == game.max_plies()
    for seed in range(20):
        state = game.new_initial_state()
        plies = state.play_random(seed=seed)
        assert plies <= game.max_plies()
        assert decisions_made(game, state.history()) <= game.max_game_length()


def test_the_decision_bound_is_met_where_the_rules_reach_it():
    # Pig ends after `horizon` decisions (the last roll's face never thrown); Hexstrat has
    # at most three decisions a turn.
    pig = agon.load_game("pig:horizon=3")
    assert (pig.max_game_length(), pig.max_plies()) == (3, 5)
    made = set()
    for seed in range(50):
        state = pig.new_initial_state()
        state.play_random(seed=seed)
        made.add(decisions_made(pig, state.history()))
    assert max(made) == 3
    hexstrat = agon.load_game("hexstrat:max_rounds=3")
    assert (hexstrat.max_game_length(), hexstrat.max_plies()) == (18, 18 + 18)
    assert agon.load_game("threewill:max_turns=8").max_game_length() == 4 * 8 - 1


def test_clones_and_pickles_are_independent_copies_with_their_history():
    state = agon.load_game("pig:target=30").new_initial_state()
    for move in ["roll", "4", "roll", "6", "hold"]:
        state.apply(move)
    for copied in [state.clone(), copy.deepcopy(state), pickle.loads(pickle.dumps(state))]:
        assert copied.history() == state.history() and copied.hash() == state.hash()
        copied.apply("roll")
        assert copied.ply() == state.ply() + 1
    assert state.history() == ["roll", "4", "roll", "6", "hold"]


def test_an_illegal_move_is_refused_with_the_reason_and_changes_nothing():
    state = agon.load_game("connect4").new_initial_state()
    with pytest.raises(agon.AgonError, match=r'"z" is not a column'):
        state.apply("z")
    with pytest.raises(agon.AgonError, match="9 is not the id of a legal move here"):
        state.apply(9)
    for _ in range(6):
        state.apply("a")
    with pytest.raises(agon.AgonError):
        state.apply("a")  # the column is full
    assert state.ply() == 6


def test_pig_numbers_its_actions_as_openspiel_does():
    game = agon.load_game("pig")
    state = game.new_initial_state()
    assert (game.num_distinct_actions(), game.max_chance_outcomes()) == (2, 6)
    assert state.legal_actions() == [0, 1]  # roll, hold
    state.apply(0)
    assert state.chance_outcome_actions(exact=True) == [(f, Fraction(1, 6)) for f in range(6)]
    assert state.chance_outcome_actions() == [(f, 1 / 6) for f in range(6)]
    # Each call gives a list of its own, which the caller may change.
    state.chance_outcome_actions().clear()
    assert state.chance_outcome_actions() == [(f, 1 / 6) for f in range(6)]
    assert state.chance_outcomes(exact=True)[0] == ("1", Fraction(1, 6))
    assert state.chance_outcomes()[0] == ("1", 1 / 6)


def test_pictures_are_the_command_lines():
    state = agon.load_game("connect4").new_initial_state()
    state.apply("d")
    shown = agon.run(["show", "--game", "connect4", "--moves", "d"])
    assert shown.folder is None
    assert state.picture() in shown.text
    assert state.svg().startswith("<svg") and "</svg>" in state.svg()
    assert state.observation_string(1) == str(state)


def test_an_agent_chooses_as_agon_analyse_does():
    game = agon.load_game("connect4")
    state = game.new_initial_state()
    state.apply("d")
    choice = agon.agent("ab:depth=5", game, seed=3).choose(state)
    printed = agon.run(["analyse", "--game", "connect4", "--moves", "d", "--agent", "ab:depth=5", "--seed", "3"]).text
    best = re.search(r"^bestmove (\S+) value (\S+) depth (\d+) nodes (\d+)", printed, re.M)
    assert (choice.move, choice.value, choice.depth, choice.nodes) == (
        best[1], best[2], int(best[3]), int(best[4])
    )
    assert choice.action == state.move_to_action(choice.move)
    assert choice.pv[0] == choice.move
    assert [line.depth for line in choice.iterations] == [1, 2, 3, 4, 5]


def test_every_agent_kind_plays_a_chance_game_and_a_bad_agent_is_refused():
    game = agon.load_game("pig:target=20")
    state = game.new_initial_state()
    for spec in ["random", "greedy", "mcts:iters=200", "expectimax:depth=2", "star2:depth=2"]:
        choice = agon.agent(spec, game, seed=1).choose(state)
        assert choice.move in state.legal_moves(), spec
    with pytest.raises(agon.AgonError, match=r'unknown agent "nope" \(valid: '):
        agon.agent("nope", game)
    with pytest.raises(agon.AgonError, match="solve"):
        agon.agent("solve", game)
    state.apply("roll")
    with pytest.raises(agon.AgonError, match="not chance outcomes"):
        agon.agent("random", game).choose(state)
    with pytest.raises(agon.AgonError, match="^the agent plays connect4 and cannot choose on a state of pig:"):
        agon.agent("random", agon.load_game("connect4")).choose(state)


def test_a_tournament_runs_into_a_folder_as_the_command_line_would(tmp_path):
    out = tmp_path / "run"
    report = agon.tournament("connect4", ["ab:depth=2", "random"], games=4, seed=5, out=str(out), threads=1)
    assert "ab:depth=2" in str(report)
    for name in ["meta.csv", "games.csv", "summary.csv", "report.html"]:
        assert (out / name).exists(), name
    meta = (out / "meta.csv").read_text()
    assert f"agon tournament --game connect4 --agents ab:depth=2 random --games 4 --seed 5 --out {out} --threads 1" in meta
    # The same run from the command line's parser gives the same games.
    again = tmp_path / "again"
    agon.run(["tournament", "--game", "connect4", "--agents", "ab:depth=2", "random", "--games", "4", "--seed", "5", "--out", str(again)])
    assert (again / "games.csv").read_text() == (out / "games.csv").read_text()
    with pytest.raises(agon.AgonError, match="must be even"):
        agon.tournament("connect4", ["random", "greedy"], games=3, out=str(tmp_path / "odd"))
    with pytest.raises(agon.AgonError, match="unrecognized subcommand"):
        agon.run(["tournamnet"])


def test_random_playouts_in_one_call_are_reproducible():
    game = agon.load_game("connect4")
    assert game.random_playouts(50, seed=9) == game.random_playouts(50, seed=9)
    total = sum(game.new_initial_state().play_random(seed=9 + k) for k in range(50))
    assert game.random_playouts(50, seed=9) == total


def test_the_type_hints_name_exactly_what_the_module_has():
    import ast

    stub = ast.parse((Path(agon.__file__).with_name("_agon.pyi")).read_text())
    native = agon._agon
    public = lambda names: {n for n in names if not n.startswith("_")}  # noqa: E731
    declared = set()
    for node in stub.body:
        if isinstance(node, ast.ClassDef):
            declared.add(node.name)
            members = {
                getattr(item, "name", None) or item.target.id
                for item in node.body
                if isinstance(item, (ast.FunctionDef, ast.AnnAssign))
            }
            actual = public(dir(getattr(native, node.name))) - public(dir(ValueError if node.name == "AgonError" else object))
            assert public(members) == actual - {"args", "add_note", "with_traceback"}, node.name
        elif isinstance(node, ast.FunctionDef):
            declared.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            declared.add(node.target.id)
    assert declared == public(dir(native))


def test_threads_may_share_an_agent_and_a_state():
    import threading

    game = agon.load_game("connect4")
    state = game.new_initial_state()
    bot = agon.agent("mcts:iters=2000", game, seed=1)
    moves = []

    def search():
        moves.append(bot.choose(state).move)
        state.clone().play_random(seed=len(moves))

    threads = [threading.Thread(target=search) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads)
    assert len(moves) == 4 and all(m in state.legal_moves() for m in moves)


def test_the_description_is_the_picture_as_data():
    state = agon.load_game("apv").new_initial_state()
    state.apply("d8-a8")
    seen = state.description()
    names = [c["name"] for c in seen["cells"]]
    assert len(names) == 61 and len(set(names)) == 61 and "e5" in names
    assert all(c["shape"] == "hexpointy" or c["shape"] == "hexflat" for c in seen["cells"])
    on = {names[p["cell"]]: p for p in seen["pieces"]}
    assert "a8" in on and "d8" not in on
    assert any(m["kind"] == "arrow" for m in seen["marks"]) is False  # no order yet
    assert seen["notes"] and all(isinstance(n, str) for n in seen["notes"])
    drawn = {f"piece:{p['shape']}:{p['ink']}" for p in seen["pieces"]}
    keys = {k["symbol"].removesuffix(":facing") for k in seen["legend"]}
    assert drawn <= keys


def test_an_agent_refuses_a_state_of_other_parameters_or_another_game():
    small = agon.load_game("invector:width=2,height=1")
    big = agon.load_game("invector:width=16,height=7")
    with pytest.raises(
        agon.AgonError,
        match=re.escape(
            "the agent plays invector:height=1,pie=true,width=2 and cannot choose on a state "
            "of invector:height=7,pie=true,width=16"
        ),
    ):
        agon.agent("ab:depth=1", small).choose(big.new_initial_state())
    with pytest.raises(
        agon.AgonError,
        match=re.escape(
            "the agent plays pig:die=6,horizon=1000,target=10 and cannot choose on a state of "
            "pig:die=6,horizon=1000,target=100"
        ),
    ):
        agon.agent("optimal", agon.load_game("pig:target=10")).choose(
            agon.load_game("pig:target=100").new_initial_state()
        )
    # The agent still plays its own game.
    state = small.new_initial_state()
    assert agon.agent("random", small).choose(state).move in state.legal_moves()


def test_a_failure_inside_the_library_is_an_agon_error_an_exception_catches():
    # An outside program that ends at once fails inside the library (an agent that cannot
    # play); whatever the failure, Python sees AgonError, which `except Exception` catches.
    assert issubclass(agon.AgonError, Exception)
    with pytest.raises(agon.AgonError):
        agon.run(["analyse", "--game", "connect4", "--agent", "ext:cmd=/bin/true"])
    with pytest.raises(agon.AgonError):
        agon.agent("ext:cmd=/bin/true", agon.load_game("connect4")).choose(
            agon.load_game("connect4").new_initial_state()
        )


@pytest.mark.parametrize(
    "call",
    [
        "agon.load_game('connect4').random_playouts(10**15)",
        "agon.agent('ab:depth=100', agon.load_game('connect4')).choose("
        "agon.load_game('connect4').new_initial_state())",
    ],
)
def test_ctrl_c_interrupts_a_long_call(call):
    import signal
    import subprocess
    import sys

    # The child answers SIGINT with KeyboardInterrupt even where it inherits the signal
    # ignored (a shell's background job does), so that the test does not depend on how
    # it was started.
    program = (
        "import signal, sys, agon\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "print('ready', flush=True)\n"
        "try:\n"
        f"    {call}\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', flush=True)\n"
        "    sys.exit(3)\n"
    )
    child = subprocess.Popen([sys.executable, "-c", program], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline() == "ready\n"
        # Well inside the call (which would take days) before the signal.
        import time

        time.sleep(1)
        child.send_signal(signal.SIGINT)
        # Bounded only so that a failure ends; an interrupted call returns at once.
        assert child.wait(timeout=30) == 3
        assert child.stdout.read() == "interrupted\n"
    finally:
        child.kill()
        child.wait()


def test_the_package_has_a_version_and_lists_only_its_api():
    from importlib.metadata import version

    assert agon.__version__ == version("agon-games")
    assert re.fullmatch(r"\d+\.\d+\.\d+\S*", agon.__version__)
    listed = {name for name in dir(agon) if not name.startswith("_")}
    # Besides the API, only the package's submodules imported so far (results always;
    # bot and openspiel when a test imported them).
    submodules = listed - set(agon.__all__)
    assert submodules <= {"results", "bot", "openspiel"}, submodules
    assert set(agon.__all__) <= listed
    assert "Optional" not in dir(agon) and "Sequence" not in dir(agon)
    assert "__version__" in dir(agon)


@pytest.mark.parametrize(
    "call,message",
    [
        ("state.apply(-1)", "-1 is not the id of a legal move here (valid: 0, 1, 2, 3, 4, 5, 6)"),
        (
            "state.apply(2**70)",
            "1180591620717411303424 is not the id of a legal move here (valid: 0, 1, 2, 3, 4, 5, 6)",
        ),
        ("state.apply(1.5)", "a move is its notation (a str) or its dense id (an int), not float 1.5"),
        ("state.apply(None)", "a move is its notation (a str) or its dense id (an int), not NoneType None"),
        ("state.action_to_move(-1)", "-1 is not the id of a legal move here (valid: 0, 1, 2, 3, 4, 5, 6)"),
        ("state.action_to_move(7)", "7 is not the id of a legal move here (valid: 0, 1, 2, 3, 4, 5, 6)"),
        ("state.observation_string(-1)", "player -1: the players are 0 and 1"),
        ("state.observation_string(2)", "player 2: the players are 0 and 1"),
        ("state.side(-1)", "seat -1: the seats are 0 and 1"),
        ("state.side(2**70)", "seat 1180591620717411303424: the seats are 0 and 1"),
        ("state.side('0')", "seat '0': the seats are 0 and 1"),
        ("state.play_random(seed=-1)", "seed -1: a seed is an integer from 0 to 2**64 - 1"),
        ("game.random_playouts(-1)", "count -1: a count is an integer from 0 to 2**64 - 1"),
        ("game.random_playouts(1, seed=2**64)", "seed 18446744073709551616: a seed is an integer from 0 to 2**64 - 1"),
        ("agon.agent('random', game, seed=-1)", "seed -1: a seed is an integer from 0 to 2**64 - 1"),
    ],
)
def test_a_bad_integer_is_an_agon_error_naming_what_is_valid(call, message):
    game = agon.load_game("connect4")
    state = game.new_initial_state()
    with pytest.raises(agon.AgonError) as raised:
        eval(call, {"agon": agon, "game": game, "state": state})
    assert str(raised.value) == message
    assert state.ply() == 0


def test_a_bad_id_names_the_legal_ids_at_a_chance_node_and_the_end():
    state = agon.load_game("pig").new_initial_state()
    state.apply("roll")
    with pytest.raises(agon.AgonError, match=r"^6 is not the id of an outcome of this chance event \(valid: 0, 1, 2, 3, 4, 5\)$"):
        state.apply(6)
    state.play_random(seed=1)
    with pytest.raises(agon.AgonError, match="^0 is not the id of a legal move: the game is over$"):
        state.apply(0)
    # NumPy's integers are integers.
    np = pytest.importorskip("numpy")
    other = agon.load_game("connect4").new_initial_state()
    other.apply(np.int64(3))
    assert other.history() == ["d"] and other.side(np.uint8(1))


def test_states_are_equal_when_they_are_the_same_line_of_the_same_game():
    game = agon.load_game("connect4")
    state = game.new_initial_state()
    for move in "dcb":
        state.apply(move)
    same = game.new_initial_state()
    for move in "dcb":
        same.apply(move)
    assert state == state and state == same and not state != same
    assert state == state.clone() == copy.deepcopy(state) == pickle.loads(pickle.dumps(state))
    # The same position by another order of moves is another line.
    transposed = game.new_initial_state()
    for move in "bcd":  # the first player's stones on b and d, the other's on c
        transposed.apply(move)
    assert transposed.hash() == state.hash() and transposed != state
    # Another game, or other parameters, or anything else: never equal.
    assert agon.load_game("connect4").new_initial_state() == game.new_initial_state()
    pig = agon.load_game("pig").new_initial_state()
    assert pig != agon.load_game("pig:target=50").new_initial_state()
    assert pig != game.new_initial_state() and state != "dcb" and state != None  # noqa: E711
    longer = state.clone()
    longer.apply("a")
    assert longer != state
    longer.undo()
    assert longer == state
    # Mutable, so deliberately unhashable.
    with pytest.raises(TypeError, match="unhashable"):
        hash(state)


def test_games_pickle_and_compare_by_their_canonical_spec():
    game = agon.load_game("pig:target=30")
    again = pickle.loads(pickle.dumps(game))
    assert again == game and hash(again) == hash(game) and again.spec == game.spec
    assert again.random_playouts(5, seed=2) == game.random_playouts(5, seed=2)
    assert agon.load_game("pig:target=30,die=6") == game
    assert agon.load_game("pig") != game and game != "pig:target=30"
    assert len({game, again, agon.load_game("pig")}) == 2


def test_games_and_states_go_to_worker_processes():
    import multiprocessing
    from operator import methodcaller

    game = agon.load_game("pig:target=30")
    state = game.new_initial_state()
    state.apply("roll")
    # A fresh interpreter (spawn) loads the pickled game and state.
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        plies = pool.map(methodcaller("random_playouts", 10, seed=4), [game, game])
        histories = pool.map(methodcaller("history"), [state])
        specs = pool.map(str, [game])
    assert plies == [game.random_playouts(10, seed=4)] * 2
    assert histories == [["roll"]] and specs == [game.spec]
