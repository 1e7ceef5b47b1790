//! End-to-end tests of the `agon` binary of this build: exit codes and exact error
//! lines of bad input, the output formats of analyse, play, bench and the listings.
//! Every game in every command is in games.rs; tournaments in tournament.rs.
//!
//! Small boards and shallow searches keep the whole file to a few seconds.

use crate::common;
use common::{agon, agon_in, assert_bad_input, stderr, stdout};

#[test]
fn bad_specs_give_one_line_and_exit_2() {
    let perft = |game: &'static str| ["perft", "--game", game, "--depth", "1"];
    assert_bad_input(
        &perft("chess"),
        "unknown game \"chess\" (valid: invector, connect4, pig, apv, romgon, threewill, hexstrat)",
    );
    assert_bad_input(
        &perft("invector:size=5"),
        "game \"invector:size=5\": unknown parameter \"size\" (valid: handicap, height, hole, lose_at, pie, stride, width)",
    );
    assert_bad_input(
        &perft("invector:pie=yes"),
        "game \"invector:pie=yes\": pie=yes is not valid: expected true|false",
    );
    assert_bad_input(
        &perft("invector:width=17"),
        "game \"invector:width=17\": width=17 is not valid: expected integer 1..16",
    );
    assert_bad_input(
        &perft("invector:width=4,height=4"),
        "game \"invector:height=4,pie=true,width=4\": invector board 4x4 is not allowed: \
         exactly one of width and height must be even",
    );
    assert_bad_input(
        &perft("romgon:defence=strong"),
        "game \"romgon:defence=strong\": defence=strong is not valid: expected shape|original",
    );
    assert_bad_input(
        &perft("romgon:max_actions=0"),
        "game \"romgon:max_actions=0\": max_actions=0 is not valid: expected integer 1..100000",
    );
    assert_bad_input(
        &["analyse", "--game", "invector", "--agent", "human"],
        "agent \"human\" reads moves from a person and plays only in agon play (valid here: \
         random, greedy, ab, solve, expectimax, star1, star2, mcts, optimal, ext)",
    );
    assert_bad_input(
        &["analyse", "--game", "invector", "--agent", "minimax"],
        "unknown agent \"minimax\" (valid: random, greedy, ab, solve, expectimax, star1, star2, mcts, optimal, ext)",
    );
    assert_bad_input(
        &[
            "analyse",
            "--game",
            "pig",
            "--agent",
            "mcts:rollout=eval,plies=5",
        ],
        "agent \"mcts\": plies cuts playouts short, and rollout=eval plays none (use \
         rollout=random or rollout=greedy)",
    );
    assert_bad_input(
        &[
            "analyse",
            "--game",
            "pig",
            "--agent",
            "star2:depth=2,plies=5",
        ],
        "agent \"star2\": plies cuts playouts short, and there are none without playouts=N \
         (add playouts, or leave plies out to use the evaluator)",
    );
    assert_bad_input(
        &["analyse", "--game", "invector", "--agent", "ab:dept=3"],
        "agent \"ab:dept=3\": unknown parameter \"dept\" (valid: check, depth, eval, followups, futility, hash, lmp, lmr, net, nodes, noise, null, partial, qwins, razoring, threads, time)",
    );
    assert_bad_input(
        &["analyse", "--game", "invector", "--agent", "ab:time=50"],
        "agent \"ab:time=50\": time=50 is not valid: expected duration (e.g. 50ms, 2s)",
    );
    assert_bad_input(
        &["play", "--game", "invector", "--agents", "human", "robot"],
        "unknown agent \"robot\" (valid: random, greedy, ab, solve, expectimax, star1, star2, mcts, optimal, ext, human)",
    );
    assert_bad_input(
        &["perft", "--game", "invector", "--depth", "0"],
        "invalid value '0' for '--depth <D>': 0 is not in 1..=64",
    );
    assert_bad_input(
        &["rank"],
        "unrecognized subcommand 'rank'; tip: a similar subcommand exists: 'run' (valid: games, \
         agents, tournament, play, analyse, perft, show, replay, serve, merge, run, report, bench, tune, train, balance, openings)",
    );
}

#[test]
fn an_illegal_move_is_named_with_its_place_and_the_legal_moves() {
    let game = "invector:width=3,height=2";
    assert_bad_input(
        &[
            "perft",
            "--game",
            game,
            "--depth",
            "1",
            "--moves",
            "a1xa2 a1xb1",
        ],
        "--moves: move 2 of 2, \"a1xb1\": a1 holds no white stone \
         (legal here: b1xb2 b1xc1 c2xc1 c2xb2 swap)",
    );
    assert_bad_input(
        &[
            "analyse",
            "--game",
            "invector:width=2,height=1",
            "--agent",
            "random",
            "--moves",
            "a1xb1 pass",
        ],
        "--moves: move 2 of 2, \"pass\": the game is already over",
    );
}

#[test]
fn analyse_prints_info_lines_then_bestmove() {
    let o = agon(&[
        "analyse",
        "--game",
        "invector:width=5,height=4",
        "--moves",
        "c3xd3",
        "--agent",
        "ab:depth=3",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    // The board of the position searched, a blank line, then the search.
    let (board, search) = text.split_once("\n\n").unwrap();
    assert!(board.contains('a') && !board.contains("info"), "{text}");
    let lines: Vec<&str> = search.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    for (i, line) in lines[..3].iter().enumerate() {
        let words: Vec<&str> = line.split(' ').collect();
        assert_eq!(
            words[..3],
            ["info", "depth", &(i + 1).to_string()],
            "{line}"
        );
        let value_end = words.iter().position(|w| *w == "nodes").unwrap();
        assert_eq!(words[3], "value");
        assert!(value_end == 5 || value_end == 6, "{line}"); // `12` or `win 5`
        assert_eq!(words[value_end + 2], "time_ms");
        assert_eq!(words[value_end + 4], "pv");
        assert!(words.len() > value_end + 5, "a pv has moves: {line}");
    }
    let words: Vec<&str> = lines[3].split(' ').collect();
    assert_eq!(words[0], "bestmove");
    let n = words.len();
    assert_eq!(
        [words[n - 8], words[n - 6], words[n - 4], words[n - 2]],
        ["depth", "nodes", "time_ms", "nps"]
    );
    assert_eq!(words[n - 7], "3");
    assert_eq!(words[2], "value");

    // A position whose game is over.
    let o = agon(&[
        "analyse",
        "--game",
        "invector:width=2,height=1",
        "--moves",
        "a1xb1",
        "--agent",
        "ab",
    ]);
    assert!(
        stdout(&o).ends_with("\n\ngame over: seat 0 (black) wins by elimination\n"),
        "{}",
        stdout(&o)
    );
}

/// An `mcts` search that fills its `tree` bound (1 MiB: about 16,000 nodes, far fewer
/// than 40,000 iterations create) says so before `bestmove`, on one thread and on the
/// shared tree of two; one that stays within its bound says nothing.
#[test]
fn analyse_says_when_mcts_filled_its_tree() {
    const FULL: &str = "info string tree full: the search reached its memory bound";
    for agent in [
        "mcts:iters=40000,tree=1",
        "mcts:iters=40000,tree=1,threads=2",
        "mcts:iters=2000",
    ] {
        let o = agon(&["analyse", "--game", "connect4", "--agent", agent]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let text = stdout(&o);
        let lines: Vec<&str> = text.lines().collect();
        let last = lines.len() - 1;
        assert!(lines[last].starts_with("bestmove "), "{text}");
        let says_full = lines[last - 1].starts_with(FULL);
        assert_eq!(says_full, agent.contains("tree=1"), "{agent}: {text}");
    }
}

/// At a chance node `analyse` prints the board, one line per outcome (exact probability,
/// the value after it from seat 0's view), the expectation and `bestmove (none)`: on
/// Pig after a roll (expectimax, whose expectation is the weighted mean of the outcome
/// values) and at 3Will's opening roll (star2, then mcts).
#[test]
fn analyse_at_a_chance_node_lists_the_outcomes_and_their_expectation() {
    let analyse = |game: &str, moves: &str, agent: &str| {
        let o = agon(&[
            "analyse", "--game", game, "--moves", moves, "--agent", agent,
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        stdout(&o)
    };
    for (game, moves, agent, faces) in [
        ("pig", "roll", "expectimax:depth=2", 6),
        ("threewill", "", "star2:depth=1", 6),
        ("pig:die=4", "roll", "expectimax:depth=3", 4),
    ] {
        let text = analyse(game, moves, agent);
        let (board, search) = text.split_once("\n\n").unwrap();
        assert!(!board.is_empty(), "{text}");
        let lines: Vec<&str> = search.lines().collect();
        assert_eq!(lines.len(), faces + 2, "{text}");
        let mut mean = 0.0;
        for (i, line) in lines[..faces].iter().enumerate() {
            let words: Vec<&str> = line.split(' ').collect();
            assert_eq!(
                [words[0], words[1], words[2], words[4], words[6]],
                [
                    "outcome",
                    &(i + 1).to_string(),
                    "probability",
                    "value",
                    "weight"
                ],
                "{line}"
            );
            assert_eq!(words[7], format!("1/{faces}"), "{line}");
            let p: f64 = words[3].parse().unwrap();
            assert!((p - 1.0 / faces as f64).abs() < 1e-6, "{line}");
            mean += words[5].parse::<f64>().unwrap() / faces as f64;
        }
        let expectation: Vec<&str> = lines[faces].split(' ').collect();
        assert_eq!(expectation[0], "expectation", "{text}");
        // Values are printed to three decimals.
        let value: f64 = expectation[1].parse().unwrap();
        assert!(
            (value - mean).abs() < 0.002,
            "{value} against {mean}: {text}"
        );
        assert_eq!(lines[faces + 1], "bestmove (none)");
    }
    let text = analyse("threewill", "", "mcts:iters=50");
    assert!(
        text.contains("\noutcome 6 probability 0.166667 value "),
        "{text}"
    );
    assert!(text.ends_with("\nbestmove (none)\n"), "{text}");
}

#[test]
fn listings_name_every_game_and_agent() {
    let games = stdout(&agon(&["games"]));
    assert!(games.starts_with("invector: "), "{games}");
    assert!(games.contains("\nromgon: "), "{games}");
    assert!(
        games.contains("    defence        shape|original     default shape"),
        "{games}"
    );
    assert!(
        games.contains("\napv: APV (Axis, Pivot, Veil)")
            && games.contains("    limited_orders  true|false                  default false"),
        "{games}"
    );
    assert!(games.contains("\nthreewill: "), "{games}");
    assert!(games.contains("max_turns"), "{games}");
    assert!(
        games.contains("    pie       true|false     default true"),
        "{games}"
    );
    assert!(games.contains("\nhexstrat: "), "{games}");
    assert!(
        games.contains("    max_rounds        integer 1..1000  default 60"),
        "{games}"
    );
    let agents = stdout(&agon(&["agents"]));
    // The budget an agent really gets without one in its spec, and where human plays.
    assert!(
        agents.contains("\n  without a budget in its spec: iters=10000\n  parameters:\n    iters     integer 1..9223372036854775807  default 10000 if no budget  "),
        "{agents}"
    );
    assert!(
        agents.contains("\nhuman: a person typing moves on standard input\n  plays: every game, in agon play only (tournament, run and analyse refuse it)\n"),
        "{agents}"
    );
    assert!(
        agents.contains("\next: an outside program speaking Agon's engine protocol (docs/protocol.md), one process per game and seat\n  plays: the games the program plays, in tournament, run, balance, play and analyse\n  parameters:\n    args "),
        "{agents}"
    );
    assert!(
        agents.contains("default 10s  per move: a program that has not answered"),
        "{agents}"
    );
    for name in ["random:", "greedy:", "ab:", "solve:", "human:", "ext:"] {
        assert!(
            agents.contains(&format!("\n{name}")) || agents.starts_with(name),
            "{name}"
        );
    }
}

#[test]
fn play_reprompts_and_ends_cleanly_at_end_of_input() {
    let o = agon_in(
        None,
        &[
            "play",
            "--game",
            "invector:width=3,height=2",
            "--agents",
            "human",
            "random",
        ],
        "zz\nhelp\na1xa2\n",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.starts_with("game invector:height=2,pie=true,width=3\nseat 0: human (black)\n"));
    assert!(text.contains(
        "\"zz\": expected a step like c3-c4, a capture like c3xd3, pass or swap; try again"
    ));
    assert!(text.contains("legal moves: a1xa2 c1xc2 a1xb1 b2xc2 b2xb1 c1xb1 b2xa2"));
    assert!(text.contains("1. seat 0 (black, human): a1xa2\n"));
    assert!(
        text.ends_with("end of input: game abandoned after 2 plies\n"),
        "{text}"
    );

    let o = agon(&[
        "play",
        "--game",
        "invector:width=3,height=2",
        "--agents",
        "ab:depth=2",
        "greedy",
    ]);
    assert!(stdout(&o).contains("game over after "), "{}", stdout(&o));
}

/// `agon bench` prints one line per search and a `Bench:` total that two runs agree on
/// (timings are not compared). Filtered to the Pig lines to keep the test quick.
#[test]
fn bench_total_is_identical_across_runs_and_lines_have_their_shape() {
    let run = || {
        let o = agon(&["bench", "--filter", "pig"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        stdout(&o)
    };
    let (first, second) = (run(), run());
    let last = |t: &str| t.lines().last().unwrap().to_string();
    assert!(last(&first).starts_with("Bench: "), "{first}");
    assert_eq!(last(&first), last(&second));
    let lines: Vec<&str> = first.lines().collect();
    assert_eq!(
        lines[0].split_whitespace().collect::<Vec<_>>(),
        ["game", "position", "agent", "nodes", "time_ms", "nodes/s"]
    );
    // The searches, then one playout line (Pig's), then the total.
    let searches = &lines[1..lines.len() - 2];
    assert!(!searches.is_empty());
    let playout: Vec<&str> = lines[lines.len() - 2].split_whitespace().collect();
    assert_eq!(playout[..2], ["playout", "pig"], "{first}");
    let mut total = 0;
    for line in searches {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words.len(), 6, "{line}");
        assert_eq!(words[0], "pig");
        assert!(
            words[2].contains(":depth=") || words[2].contains(":c=1.4,iters="),
            "{line}"
        );
        let numbers: Vec<u64> = words[3..].iter().map(|w| w.parse().unwrap()).collect();
        assert!(numbers[0] > 0, "{line}");
        total += numbers[0];
        // Every line is as long as the header: the columns are aligned.
        assert_eq!(line.len(), lines[0].len(), "{line}");
    }
    assert_eq!(last(&first), format!("Bench: {total}"));
    assert_bad_input(
        &["bench", "--filter", "chess"],
        "--filter: unknown game \"chess\" (valid: invector, connect4, pig, apv, romgon, threewill, hexstrat)",
    );
}

/// `agon bench --threads N` adds a second, threaded pass: its speed-up table names every
/// agent kind that takes `threads`, and the `Bench:` line stays the one-thread pass's
/// (timings are not compared). Out-of-range thread counts are bad input naming the range.
#[test]
fn bench_threads_adds_a_speed_up_table_and_keeps_the_signature() {
    let run = |threads: &str| {
        let o = agon(&["bench", "--filter", "pig", "--threads", threads]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        stdout(&o)
    };
    let (one, two) = (run("1"), run("2"));
    let last = |t: &str| t.lines().last().unwrap().to_string();
    assert!(last(&two).starts_with("Bench: "), "{two}");
    assert_eq!(last(&one), last(&two));
    assert!(!one.contains("speed-up"), "{one}");
    let lines: Vec<&str> = two.lines().collect();
    let header = lines
        .iter()
        .position(|l| l.starts_with("speed-up at 2 threads "))
        .unwrap_or_else(|| panic!("no speed-up table: {two}"));
    assert_eq!(
        lines[header],
        "speed-up at 2 threads (nodes/s against 1 thread, median over cases)"
    );
    let kinds: Vec<&str> = lines[header + 1..]
        .iter()
        .take_while(|l| !l.starts_with("playout "))
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(kinds, ["ab", "solve", "mcts"], "{two}");
    for bad in ["0", "1025"] {
        assert_bad_input(
            &["bench", "--threads", bad],
            &format!("--threads {bad}: the bench runs with 1 to 1024 threads"),
        );
    }
}
