"""The bot kit `agon.bot`: sessions of the engine protocol driven line by line."""

import io

import agon
from agon.bot import Limits, serve


def session(choose, commands, **options):
    """Runs `choose` over `commands` (lines, as bytes or text): (stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    lines = commands if isinstance(commands, list) else commands.splitlines(keepends=True)
    serve(choose, input=lines, output=out, log=err, **options)
    return out.getvalue(), err.getvalue()


def first(state, request):
    return state.legal_moves()[0]


def test_a_session_is_answered_by_the_protocol():
    out, err = session(
        first,
        "ugi\nisready\nsetoption name game value connect4\nsetoption name seed value 7\n"
        "uginewgame\nposition startpos moves d d\nnonsense\ngo\nposition startpos\ngo\n"
        "quit\ngo\n",
        name="first-bot",
        author="tests",
    )
    assert out == (
        "id name first-bot\nid author tests\n"
        "option name game type string default <empty>\n"
        "option name seed type spin default 1\nugiok\nreadyok\n"
        "bestmove a\nbestmove a\n"
    )
    assert err == ""


def test_the_bot_gets_the_game_the_line_the_seed_and_the_limits():
    seen = []

    def record(state, request):
        seen.append((request.game.spec, request.moves, request.seed, request.limits,
                     state.history(), request.deadline is not None))
        return "a"

    session(
        record,
        "setoption name game value connect4\nsetoption name seed value 18446744073709551615\n"
        "position startpos moves d c\ngo\ngo depth 3 nodes 500 movetime 200 wtime 9\n",
    )
    assert seen == [
        ("connect4", ("d", "c"), 2**64 - 1, Limits(), ["d", "c"], False),
        ("connect4", ("d", "c"), 2**64 - 1, Limits(depth=3, nodes=500, movetime=200),
         ["d", "c"], True),
    ]
    assert not Limits().any() and Limits(depth=1).any()


def test_the_generator_is_seeded_by_the_seed_and_the_ply():
    def draws(state, request):
        return state.legal_moves()[request.rng.randrange(7)]

    commands = ("setoption name game value connect4\nsetoption name seed value {}\n"
                "position startpos\ngo\ngo\nposition startpos moves {}\ngo\n")
    runs = [session(draws, commands.format(seed, "a"))[0] for seed in (5, 5, 6)]
    assert runs[0] == runs[1]
    # The same position asked twice gives the same move.
    moves = runs[0].split()
    assert moves[1] == moves[3]
    # Another seed, other draws (seeds 5 and 6 differ in these three draws).
    assert runs[0] != runs[2]


def test_an_illegal_move_of_the_bot_is_reported_and_answered_with_no_move():
    def wrong(state, request):
        return "z9"

    out, err = session(wrong, "setoption name game value connect4\nposition startpos moves d\n"
                              "go\n")
    why = ("choose returned the illegal move 'z9' at ply 1: \"z9\": \"z9\" is not a column "
           "(one letter, a to g); legal moves: a, b, c, d, e, f, g")
    assert err == f"agon.bot: {why}\n"
    assert out == f"info string error: {why}\nbestmove (none)\n"


def test_moves_may_be_action_ids_and_come_back_in_the_games_spelling():
    answers = iter([3, "stop", 7, True, 1.5, -1])

    def next_answer(state, request):
        return next(answers)

    out, err = session(next_answer, "setoption name game value pig:target=10\n"
                                    "position startpos moves roll 6\n" + "go\n" * 6)
    lines = out.splitlines()
    # Id 3 is not legal in Pig (ids 0 and 1 are roll and hold); `stop` is read as hold.
    assert lines[1:3] == ["bestmove (none)", "bestmove hold"]
    assert lines[0].startswith("info string error: choose returned the illegal move the "
                               "action id 3 at ply 2: ")
    assert lines[0].endswith("; legal moves: roll, hold")
    assert "the action id 7" in lines[3]
    assert lines[5] == ("info string error: choose returned True (bool), not a move: return "
                        "the move's notation (a str) or its dense action id (an int)")
    assert lines[7] == ("info string error: choose returned 1.5 (float), not a move: return "
                        "the move's notation (a str) or its dense action id (an int)")
    assert lines[9].startswith("info string error: choose returned the illegal move the "
                               "action id -1 at ply 2: -1 is not an action id")
    assert err.count("agon.bot: ") == 5


def test_a_long_list_of_legal_moves_is_cut():
    out, _ = session(lambda s, r: "nonsense", "setoption name game value apv\n"
                                              "position startpos\ngo\n")
    legal = agon.load_game("apv").new_initial_state().legal_moves()
    listed = out.splitlines()[0].split("; legal moves: ")[1]
    assert listed == ", ".join(legal[:20]) + f", … ({len(legal)} in all)"
    assert len(legal) > 20


def test_a_bot_that_raises_is_reported_and_the_session_goes_on():
    calls = []

    def flaky(state, request):
        calls.append(1)
        if len(calls) == 1:
            raise KeyError("no such thing\nsecond line")
        return "b"

    out, err = session(flaky, "setoption name game value connect4\nposition startpos\ngo\ngo\n")
    assert out == ("info string error: choose raised KeyError: 'no such thing\\nsecond line'\n"
                   "bestmove (none)\nbestmove b\n")
    assert "Traceback" in err and "KeyError" in err
    assert err.endswith("agon.bot: choose raised KeyError: 'no such thing\\nsecond line'\n")


def test_what_the_bot_prints_goes_to_the_log():
    def chatty(state, request):
        print("thinking about", len(state.legal_moves()), "moves")
        return "c"

    out, err = session(chatty, "setoption name game value connect4\nposition startpos\ngo\n")
    assert out == "bestmove c\n"
    assert err == "thinking about 7 moves\n"


def test_a_refused_game_leaves_no_game_until_one_is_set():
    out, err = session(first, "setoption name game value connect4\nposition startpos\n"
                              "setoption name game value nosuchgame\nposition startpos\ngo\n"
                              "setoption name game value connect4\nposition startpos\ngo\n")
    lines = out.splitlines()
    assert lines[0].startswith("info string error: setoption name game value nosuchgame "
                               "refused: unknown game \"nosuchgame\" (valid: ")
    no_game = "info string error: no game: send setoption name game value <game spec>"
    assert lines[1:] == [no_game, "bestmove (none)", "bestmove a"]
    assert err.splitlines()[1] == "agon.bot: " + no_game[len("info string error: "):]


def test_bad_positions_limits_and_seeds_are_refused():
    out, err = session(first, "go\nsetoption name game value connect4\n"
                              "setoption name seed value -1\n"
                              "position startpos moves d z9 e\ngo\n"
                              "position startpos moves d\ngo depth\ngo nodes many\n"
                              "go movetime 10\n")
    assert out.splitlines() == [
        "info string error: no game: send setoption name game value <game spec>",
        "bestmove (none)",
        "info string error: seed '-1' refused: a whole number from 0 to 2^64-1 is expected",
        "info string error: move 2 of the position, 'z9', is not legal: \"z9\": \"z9\" is not "
        "a column (one letter, a to g)",
        "info string error: move 2 of the position, 'z9', is not legal: \"z9\": \"z9\" is not "
        "a column (one letter, a to g)",
        "bestmove (none)",
        "info string error: go depth refused: a value is expected",
        "bestmove (none)",
        "info string error: go nodes many refused: a whole number is expected",
        "bestmove (none)",
        "bestmove a",
    ]
    assert len(err.splitlines()) == 6


def test_no_move_is_asked_at_a_chance_event_or_after_the_end():
    out, _ = session(first, "setoption name game value pig\nposition startpos moves roll\ngo\n"
                            "setoption name game value connect4\n"
                            "position startpos moves a b a b a b a\ngo\n")
    assert out.splitlines() == [
        "info string error: no seat is to move in this position: a chance event is pending",
        "bestmove (none)",
        "info string error: no seat is to move in this position: the game is over",
        "bestmove (none)",
    ]


def test_chance_outcomes_and_hidden_terrain_come_in_the_line():
    seen = []

    def record(state, request):
        seen.append((state.history(), state.legal_moves()))
        return state.legal_moves()[0]

    # Pig to 10: after rolling 6 and 5 the player must hold, and the legal moves say so.
    session(record, "setoption name game value pig:target=10\n"
                    "position startpos moves roll 6 roll 5\ngo\n")
    assert seen.pop() == (["roll", "6", "roll", "5"], ["hold"])
    # Hexstrat: a squad walks onto a face-down tile, which is revealed as a forest.
    session(record, "setoption name game value hexstrat\n"
                    "position startpos moves I:d3 forest\ngo\n")
    history, moves = seen.pop()
    assert history == ["I:d3", "forest"]
    assert "I:d4" not in moves and "R:d3" not in moves and "end" in moves


def test_a_line_that_extends_the_last_is_played_on_and_any_other_from_the_start():
    seen = []

    def record(state, request):
        seen.append(state.history())
        return state.legal_moves()[0]

    session(record, "setoption name game value connect4\nposition startpos moves d\ngo\n"
                    "position startpos moves d e f\ngo\nposition startpos moves c\ngo\n"
                    "uginewgame\ngo\n")
    assert seen == [["d"], ["d", "e", "f"], ["c"], []]


def test_lines_that_are_not_utf8_are_ignored():
    out, _ = session(first, [b"\xff\xfe\n", b"setoption name game value connect4\r\n",
                             b"position startpos\n", b"go\n"])
    assert out == "bestmove a\n"


def test_a_bot_may_take_the_state_alone():
    def last(state):
        return state.legal_moves()[-1]

    out, err = session(last, "setoption name game value connect4\nposition startpos\ngo\n")
    assert out == "bestmove g\n"
    assert err == ""
    # A callable object and a function with an optional request are both accepted.
    class Bot:
        def __call__(self, state, request=None):
            return state.legal_moves()[1]

    out, _ = session(Bot(), "setoption name game value connect4\nposition startpos\ngo\n")
    assert out == "bestmove b\n"


def test_a_bot_that_cannot_be_called_with_a_state_is_refused_before_it_plays():
    def needs_three(state, request, extra):
        return "a"

    try:
        session(needs_three, "setoption name game value connect4\ngo\n")
    except TypeError as e:
        assert str(e) == (
            "choose(state, request, extra) cannot be called as choose(state) or "
            "choose(state, request)"
        )
    else:
        raise AssertionError("a three-parameter bot was accepted")
