//! End-to-end tests of the `agon` binary of this build: exit codes, exact error lines,
//! output formats, reproducibility across thread counts, and run folders.
//!
//! Small boards and shallow searches keep the whole file to a few seconds.

use std::path::Path;

mod common;
use common::{
    agon, agon_in, assert_bad, scratch, small_tournament as tournament, stderr, stdout,
    stdout_without_speed,
};

/// Asserts that `agon` with `args` is refused: exit code 2, exactly `line` on standard
/// error, nothing on standard output.
fn assert_bad_input(args: &[&str], line: &str) {
    assert_bad(&agon(args), line);
}

#[test]
fn bad_specs_give_one_line_and_exit_2() {
    let perft = |game: &'static str| ["perft", "--game", game, "--depth", "1"];
    assert_bad_input(
        &perft("chess"),
        "unknown game \"chess\" (valid: invector, connect4, pig, apv, romgon, threewill, hexstrat)",
    );
    assert_bad_input(
        &perft("invector:size=5"),
        "game \"invector:size=5\": unknown parameter \"size\" (valid: height, pie, width)",
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
         random, greedy, ab, solve, expectimax, star1, star2, mcts)",
    );
    assert_bad_input(
        &["analyse", "--game", "invector", "--agent", "minimax"],
        "unknown agent \"minimax\" (valid: random, greedy, ab, solve, expectimax, star1, star2, mcts)",
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
        "agent \"ab:dept=3\": unknown parameter \"dept\" (valid: depth, hash, nodes, noise, threads, time)",
    );
    assert_bad_input(
        &["analyse", "--game", "invector", "--agent", "ab:time=50"],
        "agent \"ab:time=50\": time=50 is not valid: expected duration (e.g. 50ms, 2s)",
    );
    assert_bad_input(
        &["play", "--game", "invector", "--agents", "human", "robot"],
        "unknown agent \"robot\" (valid: random, greedy, ab, solve, expectimax, star1, star2, mcts, human)",
    );
    assert_bad_input(
        &["perft", "--game", "invector", "--depth", "0"],
        "invalid value '0' for '--depth <D>': 0 is not in 1..=64",
    );
    assert_bad_input(
        &["rank"],
        "unrecognized subcommand 'rank'; tip: a similar subcommand exists: 'run' (valid: games, \
         agents, tournament, play, analyse, perft, merge, run, report, bench)",
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
fn perft_matches_the_rule_sheet() {
    let o = agon(&[
        "perft",
        "--game",
        "invector:width=5,height=4",
        "--depth",
        "3",
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "perft 1 31\nperft 2 854\nperft 3 19066\n");
    assert!(stderr(&o).starts_with("nps "), "{}", stderr(&o));

    let o = agon(&["perft", "--game", "invector", "--depth", "2"]);
    assert_eq!(stdout(&o), "perft 1 97\nperft 2 9032\n");

    // Romgon's vectors, both rotation policies.
    let o = agon(&["perft", "--game", "romgon", "--depth", "3"]);
    assert_eq!(stdout(&o), "perft 1 51\nperft 2 2599\nperft 3 132172\n");
    let o = agon(&["perft", "--game", "romgon:rotation=step", "--depth", "3"]);
    assert_eq!(stdout(&o), "perft 1 33\nperft 2 1087\nperft 3 37399\n");

    let o = agon(&[
        "perft",
        "--game",
        "invector:width=5,height=4",
        "--depth",
        "3",
        "--divide",
    ]);
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 31 + 1);
    assert_eq!(*lines.last().unwrap(), "perft 3 19066");
    let sum: u64 = lines[..31]
        .iter()
        .map(|l| l.split(' ').nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 19066);
}

#[test]
fn apv_runs_in_every_command() {
    // The spec's vectors, with future orders (order decisions are plies).
    let o = agon(&["perft", "--game", "apv", "--depth", "3"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "perft 1 25\nperft 2 507\nperft 3 12527\n");
    let o = agon(&["perft", "--game", "apv:orders=false", "--depth", "2"]);
    assert_eq!(stdout(&o), "perft 1 25\nperft 2 519\n");
    // Parameters and moves are checked with one clear line.
    assert_bad_input(
        &[
            "perft",
            "--game",
            "apv:orders=false,limited_orders=true",
            "--depth",
            "1",
        ],
        "game \"apv:limited_orders=true,max_turns=500,orders=false\": limited_orders=true \
         restricts future orders, so it needs orders=true",
    );
    assert_bad_input(
        &["perft", "--game", "apv:max_turns=0", "--depth", "1"],
        "game \"apv:max_turns=0\": max_turns=0 is not valid: expected integer 1..1000000",
    );
    let o = agon(&[
        "perft",
        "--game",
        "apv",
        "--depth",
        "1",
        "--moves",
        "d8-a8 d7-d5",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with(
            "error: --moves: move 2 of 2, \"d7-d5\": north has made its primary move; now \
             it decides its order: order:<from>-<to> or no-order (legal here: no-order "
        ),
        "{}",
        stderr(&o)
    );
    // A search, a played game and a tournament.
    let o = agon(&[
        "analyse",
        "--game",
        "apv",
        "--moves",
        "d8-a8 order:d7-d5",
        "--agent",
        "ab:depth=3",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).lines().last().unwrap().starts_with("bestmove "));
    let o = agon(&[
        "play",
        "--game",
        "apv:max_turns=6",
        "--agents",
        "greedy",
        "random",
        "--seed",
        "3",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("game over"), "{}", stdout(&o));
    let dir = scratch("apv-tournament");
    let out = dir.join("run");
    let o = agon(&[
        "tournament",
        "--game",
        "apv:max_turns=20",
        "--agents",
        "greedy",
        "random",
        "--games",
        "4",
        "--seed",
        "1",
        "--threads",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("apv:limited_orders=false,max_turns=20,orders=true: 4 games"));
    let o = agon(&["bench", "--filter", "apv"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).lines().last().unwrap().starts_with("Bench: "));
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
        games.contains("    defence      shape|original     default shape"),
        "{games}"
    );
    assert!(
        games.contains("\napv: APV (Axis, Pivot, Veil)")
            && games.contains("    limited_orders  true|false          default false"),
        "{games}"
    );
    assert!(games.contains("\nthreewill: "), "{games}");
    assert!(games.contains("max_turns"), "{games}");
    assert!(
        games.contains("    pie     true|false     default true"),
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
    for name in ["random:", "greedy:", "ab:", "solve:", "human:"] {
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

#[test]
fn one_and_two_threads_write_identical_files() {
    let dir = scratch("threads");
    let (one, two) = (dir.join("one"), dir.join("two"));
    for (out, threads) in [(&one, "1"), (&two, "2")] {
        let o = agon(&tournament(out.to_str().unwrap(), &["--threads", threads]));
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    for file in ["games.csv", "summary.csv"] {
        let a = std::fs::read(one.join(file)).unwrap();
        let b = std::fs::read(two.join(file)).unwrap();
        assert_eq!(a, b, "{file} differs between 1 and 2 threads");
    }
    let games = std::fs::read_to_string(one.join("games.csv")).unwrap();
    assert_eq!(games.lines().count(), 1 + 3 * 4);
    let timings = std::fs::read_to_string(one.join("timings.csv")).unwrap();
    assert!(timings.starts_with("game,time_us0,time_us1\n0,"));
    let summary = std::fs::read_to_string(one.join("summary.csv")).unwrap();
    let lines: Vec<&str> = summary.lines().collect();
    assert_eq!(
        lines[0],
        "section,pairing,agent_a,agent_b,subject,statistic,value,low,high"
    );
    assert_eq!(lines[1], "pairing,0,ab:depth=2,greedy,,games,4,,");
    assert!(
        summary.contains("\npairing,2,greedy,random,,games,4,,\n"),
        "{summary}"
    );
    // Three agents: a rating per agent, mean zero.
    assert!(
        summary.contains("\nrating,,,,,anchor,mean,,\n"),
        "{summary}"
    );
    for agent in ["ab:depth=2", "greedy", "random"] {
        assert!(
            summary.contains(&format!("\nrating,,,,{agent},elo,")),
            "{agent}: {summary}"
        );
    }
    assert!(
        summary.contains("\nseat,,,,0,wins,") && summary.contains("\nlength,,,,plies,games,12,,\n"),
        "{summary}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn golden_games_csv_of_a_seeded_self_play() {
    // Random self-play: depends only on the rules, the seed derivation and `random`.
    // A deliberate change to any of them updates this file, reviewed as a diff.
    let dir = scratch("golden");
    let out = dir.join("run");
    let o = agon(&[
        "tournament",
        "--game",
        "invector:width=3,height=2",
        "--agents",
        "random",
        "--games",
        "2",
        "--seed",
        "5",
        "--threads",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(out.join("games.csv")).unwrap(),
        "game,pair,pairing,agent0,agent1,side0,side1,result0,winner,end_reason,plies,turns,decisions0,decisions1,nodes0,nodes1,opening,moves,note,digest\n\
         0,0,0,random,random,black,white,0,1,elimination,6,6,3,3,3,3,0,b2xc2 a2xa1 c1xb1 a1xb1 c2-b2 b1xb2,,8fdc316d8cbae730\n\
         1,0,0,random,random,white,black,1,0,elimination,7,7,4,3,4,3,0,c1xb1 swap c2xb2 a1xa2 b2xb1 a2-b2 b1xb2,,0632ff12f6154c06\n"
    );
    // The summary of this run, file and printed table, byte for byte (one agent: no
    // ratings; one pair, each game won by the side that moved first).
    assert_eq!(
        std::fs::read_to_string(out.join("summary.csv")).unwrap(),
        r#"section,pairing,agent_a,agent_b,subject,statistic,value,low,high
pairing,0,random,random,,games,2,,
pairing,0,random,random,,distinct_games,2,,
pairing,0,random,random,,wins,0,,
pairing,0,random,random,,draws,0,,
pairing,0,random,random,,losses,2,,
pairing,0,random,random,,score,0.0000,,
pairing,0,random,random,,elo,-inf,-inf,216.2
pairing,0,random,random,,los,0.0786,,
pairing,0,random,random,,pairs,,,
pairing,0,random,random,,pairs_ll,,,
pairing,0,random,random,,pairs_ld,,,
pairing,0,random,random,,pairs_dd,,,
pairing,0,random,random,,pairs_wd,,,
pairing,0,random,random,,pairs_ww,,,
pairing,0,random,random,,elo_pairs,,,
seat,,,,0,wins,1,,
seat,,,,0,draws,0,,
seat,,,,0,losses,1,,
seat,,,,0,win_rate,0.5000,0.0945,0.9055
seat,,,,0,p_value,1.0000,,
seat,,,,0,score,0.5000,0.0000,1.0000
side,,,,black,wins,0,,
side,,,,black,draws,0,,
side,,,,black,losses,2,,
side,,,,black,win_rate,0.0000,0.0000,0.6576
side,,,,black,p_value,0.5000,,
side,,,,black,score,0.0000,0.0000,0.7764
swap,,,,,swaps,1,,
swap,,,,,swap_rate,0.5000,0.0945,0.9055
length,,,,plies,games,2,,
length,,,,plies,mean,6.50,,
length,,,,plies,sd,0.71,,
length,,,,plies,min,6,,
length,,,,plies,q1,6.25,,
length,,,,plies,median,6.50,,
length,,,,plies,q3,6.75,,
length,,,,plies,max,7,,
length,,,,turns,games,2,,
length,,,,turns,mean,6.50,,
length,,,,turns,sd,0.71,,
length,,,,turns,min,6,,
length,,,,turns,q1,6.25,,
length,,,,turns,median,6.50,,
length,,,,turns,q3,6.75,,
length,,,,turns,max,7,,
length,,,,decisions,games,2,,
length,,,,decisions,mean,6.50,,
length,,,,decisions,sd,0.71,,
length,,,,decisions,min,6,,
length,,,,decisions,q1,6.25,,
length,,,,decisions,median,6.50,,
length,,,,decisions,q3,6.75,,
length,,,,decisions,max,7,,
end,,,,elimination,seat0_wins,1,,
end,,,,elimination,seat1_wins,1,,
end,,,,elimination,draws,0,,
seat,0,random,random,0,wins,1,,
seat,0,random,random,0,draws,0,,
seat,0,random,random,0,losses,1,,
seat,0,random,random,0,win_rate,0.5000,0.0945,0.9055
seat,0,random,random,0,p_value,1.0000,,
seat,0,random,random,0,score,0.5000,0.0000,1.0000
side,0,random,random,black,wins,0,,
side,0,random,random,black,draws,0,,
side,0,random,random,black,losses,2,,
side,0,random,random,black,win_rate,0.0000,0.0000,0.6576
side,0,random,random,black,p_value,0.5000,,
side,0,random,random,black,score,0.0000,0.0000,0.7764
swap,0,random,random,,swaps,1,,
swap,0,random,random,,swap_rate,0.5000,0.0945,0.9055
length,0,random,random,plies,games,2,,
length,0,random,random,plies,mean,6.50,,
length,0,random,random,plies,sd,0.71,,
length,0,random,random,plies,min,6,,
length,0,random,random,plies,q1,6.25,,
length,0,random,random,plies,median,6.50,,
length,0,random,random,plies,q3,6.75,,
length,0,random,random,plies,max,7,,
length,0,random,random,turns,games,2,,
length,0,random,random,turns,mean,6.50,,
length,0,random,random,turns,sd,0.71,,
length,0,random,random,turns,min,6,,
length,0,random,random,turns,q1,6.25,,
length,0,random,random,turns,median,6.50,,
length,0,random,random,turns,q3,6.75,,
length,0,random,random,turns,max,7,,
length,0,random,random,decisions,games,2,,
length,0,random,random,decisions,mean,6.50,,
length,0,random,random,decisions,sd,0.71,,
length,0,random,random,decisions,min,6,,
length,0,random,random,decisions,q1,6.25,,
length,0,random,random,decisions,median,6.50,,
length,0,random,random,decisions,q3,6.75,,
length,0,random,random,decisions,max,7,,
end,0,random,random,elimination,seat0_wins,1,,
end,0,random,random,elimination,seat1_wins,1,,
end,0,random,random,elimination,draws,0,,
"#
    );
    assert_eq!(
        stdout_without_speed(&o),
        format!(
            r#"invector:height=2,pie=true,width=3: 2 games (2 per pairing), seed 5
pairings (A against B; A is seat 0 in even games; distinct: games with their own move list)
#  agent A  agent B  games  distinct  W-D-L   score       Elo A-B [95%]     LOS
0  random   random       2         2  0-0-2  0.0000  -inf [-inf, 216.2]  0.0786
pairing 0: self-play, so each game stands alone (a pair does not share its start and luck): pair statistics do not apply

first-move advantage (seat 0 moves first; side: the side that moved first)
scope      by          W-D-L           win rate [95%]  p (50%)              score [95%]          swap rate [95%]
all games  seat 0      1-0-1  0.5000 [0.0945, 0.9055]   1.0000  0.5000 [0.0000, 1.0000]
all games  side black  0-0-2  0.0000 [0.0000, 0.6576]   0.5000  0.0000 [0.0000, 0.7764]  0.5000 [0.0945, 0.9055]
pairing 0  seat 0      1-0-1  0.5000 [0.0945, 0.9055]   1.0000  0.5000 [0.0000, 1.0000]
pairing 0  side black  0-0-2  0.0000 [0.0000, 0.6576]   0.5000  0.0000 [0.0000, 0.7764]  0.5000 [0.0945, 0.9055]
win rate: wins over decisive games; p (50%): the chance of a win rate at least this far from 50% if both were equally likely to win (exact binomial test, two-sided)

game length in plies and in turns (as the game's rules count them)
scope      in     games  mean    sd  min    q1  median    q3  max
all games  plies      2  6.50  0.71    6  6.25    6.50  6.75    7
all games  turns      2  6.50  0.71    6  6.25    6.50  6.75    7
pairing 0  plies      2  6.50  0.71    6  6.25    6.50  6.75    7
pairing 0  turns      2  6.50  0.71    6  6.25    6.50  6.75    7

end reasons
scope      end reason   seat 0 won  seat 1 won  drawn
all games  elimination           1           1      0
pairing 0  elimination           1           1      0

wrote meta.csv, games.csv, timings.csv, summary.csv, speed.csv, seat0.svg, lengths.svg in {}
"#,
            out.display()
        )
    );
    // Speed, apart from the reproducible table: per agent its games, decisions and nodes
    // are exact (self-play: 3 + 3 + 4 + 3 decisions of `random`, a node each); times vary.
    let speed = std::fs::read_to_string(out.join("speed.csv")).unwrap();
    let lines: Vec<&str> = speed.lines().collect();
    assert_eq!(
        lines[0],
        "agent,games,decisions,time_us,us_per_decision,nodes,nodes_per_second"
    );
    let fields: Vec<&str> = lines[1].split(',').collect();
    assert_eq!(
        (lines.len(), fields[0], fields[1], fields[2], fields[5]),
        (2, "random", "2", "13", "13")
    );
    let printed = stdout(&o);
    let section = &printed[printed.find("\nspeed (").unwrap() + 1..];
    assert!(
        section.starts_with(
            "speed (wall-clock thinking time, not reproducible; speed.csv)\n\
             agent   games  decisions  time s  ms/decision  nodes  nodes/s\n\
             random      2         13"
        ),
        "{section}"
    );
    let meta = std::fs::read_to_string(out.join("meta.csv")).unwrap();
    assert!(
        meta.starts_with("key,value\nformat,3\ntoolkit,agon 0.1.0\ncommit,"),
        "{meta}"
    );
    // The commit: 40 hex digits, `-dirty` if the tree had changes, or `unknown`.
    let commit = meta
        .lines()
        .nth(3)
        .unwrap()
        .strip_prefix("commit,")
        .unwrap();
    let hex = commit.strip_suffix("-dirty").unwrap_or(commit);
    assert!(
        commit == "unknown" || (hex.len() == 40 && hex.chars().all(|c| c.is_ascii_hexdigit())),
        "{commit}"
    );
    let rest = meta.split_once(&format!("commit,{commit}\n")).unwrap().1;
    assert!(
        rest.starts_with(
            "game,\"invector:height=2,pie=true,width=3\"\n\
         agent,random\ngames_per_pairing,2\nseed,5\nrandom_opening,0\nopenings,\nopenings_hash,\n\
         threads,1\ncommand,"
        ),
        "{meta}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sprt_and_ratings_of_a_two_agent_match() {
    // random against greedy on the 3×2 board: greedy wins all four games. The summary
    // reports the SPRT's ratio and decision and both agents' ratings; the printed table
    // is checked byte for byte, summary.csv down to the ratings.
    let dir = scratch("sprt");
    let out = dir.join("run");
    let o = agon(&[
        "tournament",
        "--game",
        "invector:width=3,height=2",
        "--agents",
        "random",
        "greedy",
        "--games",
        "4",
        "--seed",
        "5",
        "--threads",
        "1",
        "--sprt",
        "0,5,0.05,0.05",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout_without_speed(&o),
        format!(
            r#"invector:height=2,pie=true,width=3: 4 games (4 per pairing), seed 5
pairings (A against B; A is seat 0 in even games; distinct: games with their own move list; DD counts WL pairs too)
#  agent A  agent B  games  distinct  W-D-L   score      Elo A-B [95%]     LOS  pairs LL-LD-DD-WD-WW  Elo by pairs [95%]
0  random   greedy       4         4  0-0-4  0.0000  -inf [-inf, 18.9]  0.0228             2-0-0-0-0  -inf [-inf, 216.2]

SPRT elo0 0, elo1 5, alpha 0.05, beta 0.05: LLR -0.03 after 2 pairs (bounds -2.94, 2.94): continue

ratings (Bradley-Terry, mean 0, one virtual draw each against a 0-rated agent)
agent   games   score              Elo [95%]
random      4  0.0000  -223.5 [-512.0, 65.0]
greedy      4  1.0000   223.5 [-65.0, 512.0]

first-move advantage (seat 0 moves first; side: the side that moved first)
scope      by          W-D-L           win rate [95%]  p (50%)              score [95%]          swap rate [95%]
all games  seat 0      2-0-2  0.5000 [0.1500, 0.8500]   1.0000  0.5000 [0.0100, 0.9900]
all games  side black  4-0-0  1.0000 [0.5101, 1.0000]   0.1250  1.0000 [0.4729, 1.0000]  0.5000 [0.1500, 0.8500]
pairing 0  seat 0      2-0-2  0.5000 [0.1500, 0.8500]   1.0000  0.5000 [0.0100, 0.9900]
pairing 0  side black  4-0-0  1.0000 [0.5101, 1.0000]   0.1250  1.0000 [0.4729, 1.0000]  0.5000 [0.1500, 0.8500]
win rate: wins over decisive games; p (50%): the chance of a win rate at least this far from 50% if both were equally likely to win (exact binomial test, two-sided)

game length in plies and in turns (as the game's rules count them)
scope      in     games  mean    sd  min    q1  median    q3  max
all games  plies      4  6.50  1.73    5  5.00    6.50  8.00    8
all games  turns      4  6.50  1.73    5  5.00    6.50  8.00    8
pairing 0  plies      4  6.50  1.73    5  5.00    6.50  8.00    8
pairing 0  turns      4  6.50  1.73    5  5.00    6.50  8.00    8

end reasons
scope      end reason   seat 0 won  seat 1 won  drawn
all games  elimination           2           2      0
pairing 0  elimination           2           2      0

wrote meta.csv, games.csv, timings.csv, summary.csv, speed.csv, ratings.svg, seat0.svg, lengths.svg in {}
"#,
            out.display()
        )
    );
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    assert!(
        summary.starts_with(
            r#"section,pairing,agent_a,agent_b,subject,statistic,value,low,high
pairing,0,random,greedy,,games,4,,
pairing,0,random,greedy,,distinct_games,4,,
pairing,0,random,greedy,,wins,0,,
pairing,0,random,greedy,,draws,0,,
pairing,0,random,greedy,,losses,4,,
pairing,0,random,greedy,,score,0.0000,,
pairing,0,random,greedy,,elo,-inf,-inf,18.9
pairing,0,random,greedy,,los,0.0228,,
pairing,0,random,greedy,,pairs,2,,
pairing,0,random,greedy,,pairs_ll,2,,
pairing,0,random,greedy,,pairs_ld,0,,
pairing,0,random,greedy,,pairs_dd,0,,
pairing,0,random,greedy,,pairs_wd,0,,
pairing,0,random,greedy,,pairs_ww,0,,
pairing,0,random,greedy,,elo_pairs,-inf,-inf,216.2
sprt,0,random,greedy,,elo0,0,,
sprt,0,random,greedy,,elo1,5,,
sprt,0,random,greedy,,alpha,0.05,,
sprt,0,random,greedy,,beta,0.05,,
sprt,0,random,greedy,,llr,-0.0290,-2.9444,2.9444
sprt,0,random,greedy,,decision,continue,,
rating,,,,,anchor,mean,,
rating,,,,random,games,4,,
rating,,,,random,score,0.0000,,
rating,,,,random,elo,-223.5,-512.0,65.0
rating,,,,greedy,games,4,,
rating,,,,greedy,score,1.0000,,
rating,,,,greedy,elo,223.5,-65.0,512.0
"#
        ),
        "{summary}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_sprt_input_leaves_no_files() {
    let dir = scratch("bad-sprt");
    let out = dir.join("run");
    let out_text = out.to_str().unwrap();
    let two = |sprt: &'static str| {
        vec![
            "tournament",
            "--game",
            "invector:width=3,height=2",
            "--agents",
            "random",
            "greedy",
            "--sprt",
            sprt,
            "--out",
            out_text,
        ]
    };
    let cases = [
        (
            two("0,5"),
            "--sprt: expected four numbers elo0,elo1,alpha,beta (e.g. 0,5,0.05,0.05), got \"0,5\"",
        ),
        (
            two("5,-5,0.05,0.05"),
            "--sprt: elo0 must be less than elo1, got elo0 5 and elo1 -5",
        ),
        (
            two("0,5,0.05,0.7"),
            "--sprt: beta must be between 0 and 0.5 (exclusive), got 0.7",
        ),
        (
            tournament(out_text, &["--sprt", "0,5,0.05,0.05"]),
            "--sprt needs exactly two agents, got 3",
        ),
    ];
    for (args, line) in cases {
        assert_bad_input(&args, line);
        assert!(!out.exists(), "{args:?} created {}", out.display());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn run_folders_are_reprinted_or_refused() {
    let dir = scratch("rerun");
    let out = dir.join("run");
    let out_text = out.to_str().unwrap();
    let first = agon(&tournament(out_text, &["--threads", "2"]));
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    assert!(stdout(&first).contains(&format!(
        "wrote meta.csv, games.csv, timings.csv, summary.csv, speed.csv, ratings.svg, seat0.svg, lengths.svg in {out_text}"
    )));
    let games = std::fs::read(out.join("games.csv")).unwrap();

    // The same run (another thread count does not make it different): reprinted.
    let again = agon(&tournament(out_text, &["--threads", "1"]));
    assert_eq!(again.status.code(), Some(0));
    let text = stdout(&again);
    assert!(
        text.starts_with(&format!(
            "{out_text} already holds this finished run; its summary:\n"
        )),
        "{text}"
    );
    // The whole report, from the heading to the blank line before `wrote ...`.
    let table = |t: &str| {
        let start = t.find("invector:").expect("heading");
        let end = t.rfind("\n\n").expect("end of the report");
        t[start..end].to_string()
    };
    assert_eq!(table(&text), table(&stdout(&first)));
    assert!(table(&text).contains("\nratings (Bradley-Terry"), "{text}");
    assert_eq!(std::fs::read(out.join("games.csv")).unwrap(), games);

    // A different run: refused, nothing touched.
    let mut other = tournament(out_text, &[]);
    other[10] = "12"; // --seed
    assert_bad_input(
        &other,
        &format!(
            "output folder \"{out_text}\" holds a different run (seed \"11\" there, \"12\" here); \
             choose another --out or remove it"
        ),
    );
    assert_eq!(std::fs::read(out.join("games.csv")).unwrap(), games);

    // A folder with foreign files.
    let foreign = dir.join("foreign");
    std::fs::create_dir_all(&foreign).unwrap();
    std::fs::write(foreign.join("notes.txt"), "mine").unwrap();
    let foreign_text = foreign.to_str().unwrap();
    assert_bad_input(
        &tournament(foreign_text, &[]),
        &format!(
            "output folder \"{foreign_text}\" is not empty and holds no agon run (no meta.csv); \
             choose a new or empty folder"
        ),
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_tournament_input_leaves_no_files() {
    let dir = scratch("nofiles");
    let out = dir.join("run");
    let out_text = out.to_str().unwrap();
    let cases: Vec<(Vec<&str>, String)> = vec![
        (
            {
                let mut a = tournament(out_text, &[]);
                a[8] = "3";
                a
            },
            "--games must be even and at least 2 (games 2k and 2k+1 form a seat-swapped pair), got 3".into(),
        ),
        (
            {
                let mut a = tournament(out_text, &[]);
                a[2] = "invector:width=6,height=6";
                a
            },
            "game \"invector:height=6,pie=true,width=6\": invector board 6x6 is not allowed: \
             exactly one of width and height must be even"
                .into(),
        ),
        (
            {
                let mut a = tournament(out_text, &[]);
                a[5] = "grredy";
                a
            },
            "unknown agent \"grredy\" (valid: random, greedy, ab, solve, expectimax, star1, star2, mcts)".into(),
        ),
        (
            {
                let mut a = tournament(out_text, &[]);
                a[5] = "human";
                a
            },
            "agent \"human\" reads moves from a person and plays only in agon play (valid here: \
         random, greedy, ab, solve, expectimax, star1, star2, mcts)".into(),
        ),
        (
            {
                let mut a = tournament(out_text, &[]);
                a[2] = "pig";
                a
            },
            "agent \"ab\" needs a deterministic game: alpha-beta cannot search chance nodes \
             (for games with chance use star2 or mcts)"
                .into(),
        ),
    ];
    for (args, line) in cases {
        assert_bad_input(&args, &line);
        assert!(!out.exists(), "{args:?} created {}", out.display());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn agon_alone_runs_the_default_tournament_then_reprints_it() {
    let dir = scratch("default");
    let first = agon_in(Some(&dir), &[], "");
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    let text = stdout(&first);
    assert!(
        text.starts_with("invector:height=7,pie=true,width=8: 60 games (20 per pairing), seed 1\n"),
        "{text}"
    );
    assert!(text.contains(
        "wrote meta.csv, games.csv, timings.csv, summary.csv, speed.csv, ratings.svg, seat0.svg, \
         lengths.svg in results/default"
    ));
    for file in [
        "meta.csv",
        "games.csv",
        "timings.csv",
        "summary.csv",
        "speed.csv",
        "ratings.svg",
        "seat0.svg",
        "lengths.svg",
    ] {
        assert!(dir.join("results/default").join(file).is_file(), "{file}");
    }
    let again = agon_in(Some(&dir), &[], "");
    assert_eq!(again.status.code(), Some(0));
    assert!(stdout(&again).starts_with("results/default already holds this finished run"));
    std::fs::remove_dir_all(&dir).unwrap();
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
    let searches = &lines[1..lines.len() - 1];
    assert!(!searches.is_empty());
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

/// Hexstrat, a chance game with multi-decision turns, in every command: perft gives the
/// spec's vectors, analyse searches with the chance agents (and refuses alpha-beta),
/// play and a tournament run to the end, an illegal move is one line, and
/// `agon games` lists its parameters.
#[test]
fn hexstrat_works_in_every_command() {
    let o = agon(&["perft", "--game", "hexstrat", "--depth", "4"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "perft 1 19\nperft 2 73\nperft 3 679\nperft 4 3397\n"
    );
    // From a pending reveal: the three outcomes, then seat 0's decisions below each.
    let o = agon(&[
        "perft", "--game", "hexstrat", "--depth", "1", "--moves", "I:d3", "--divide",
    ]);
    assert_eq!(stdout(&o), "plains 1\nforest 1\nmountain 1\nperft 1 3\n");

    for agent in [
        "star2:depth=2",
        "expectimax:depth=2",
        "mcts:iters=200",
        "greedy",
    ] {
        let o = agon(&[
            "analyse",
            "--game",
            "hexstrat",
            "--agent",
            agent,
            "--moves",
            "I:d3 plains",
        ]);
        assert_eq!(o.status.code(), Some(0), "{agent}: {}", stderr(&o));
        assert!(stdout(&o).contains("bestmove "), "{agent}: {}", stdout(&o));
    }
    assert_bad_input(
        &["analyse", "--game", "hexstrat", "--agent", "ab:depth=2"],
        "agent \"ab\" needs a deterministic game: alpha-beta cannot search chance nodes \
         (for games with chance use star2 or mcts)",
    );
    assert_bad_input(
        &[
            "perft",
            "--game",
            "hexstrat",
            "--depth",
            "1",
            "--moves",
            "I:d3 plains I:d4",
        ],
        "--moves: move 3 of 3, \"I:d4\": seat 0's Infantry has already acted this turn \
         (legal here: R:d1 R:e1 R:c2 R:e2 R:c3 M:d1 M:e1 M:c2 M:e2 M:c3 end)",
    );
    assert_bad_input(
        &["perft", "--game", "hexstrat:plains=20", "--depth", "1"],
        "game \"hexstrat:forests=10,max_rounds=60,mountains=10,plains=20\": hexstrat tile \
         bag plains=20, forests=10, mountains=10 holds 40 tiles: the 35 face-down cells \
         need exactly 35",
    );

    let o = agon(&[
        "play", "--game", "hexstrat", "--agents", "greedy", "random", "--seed", "3",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("game over after "), "{}", stdout(&o));

    let dir = scratch("hexstrat");
    let out = dir.join("run");
    let o = agon(&[
        "tournament",
        "--game",
        "hexstrat:max_rounds=20",
        "--agents",
        "greedy",
        "random",
        "--games",
        "4",
        "--seed",
        "5",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let games = std::fs::read_to_string(out.join("games.csv")).unwrap();
    assert_eq!(games.lines().count(), 1 + 4, "{games}");

    let listing = stdout(&agon(&["games"]));
    assert!(listing.contains("\nhexstrat: "), "{listing}");
    assert!(
        listing.contains("    max_rounds  integer 1..1000  default 60"),
        "{listing}"
    );
}

/// 3Will works at the command line: perft reproduces the rules' vectors, a move list
/// with an illegal move or a bad parameter is one clear line with exit 2, and a game
/// between two chance agents runs to its end.
#[test]
fn threewill_runs_in_perft_play_and_rejects_bad_input() {
    let o = agon(&["perft", "--game", "threewill", "--depth", "3"]);
    assert!(o.status.success());
    let text = stdout(&o);
    for line in ["perft 1 6\n", "perft 2 60\n", "perft 3 304\n"] {
        assert!(text.contains(line), "{text}");
    }
    assert_bad_input(
        &[
            "perft",
            "--game",
            "threewill",
            "--depth",
            "2",
            "--moves",
            "1 c2-c4",
        ],
        "--moves: move 2 of 2, \"c2-c4\": not a legal plain move under directive 1 \
         (legal here: a2-a3 b2-b3 c2-c3 d2-d3 e2-e3 f2-f3 g2-g3 h2-h3)",
    );
    assert_bad_input(
        &["perft", "--game", "threewill:max_turns=0", "--depth", "1"],
        "game \"threewill:max_turns=0\": max_turns=0 is not valid: expected integer 1..100000",
    );
    let o = agon(&[
        "play",
        "--game",
        "threewill:max_turns=30",
        "--agents",
        "greedy",
        "random",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("game over"), "{}", stdout(&o));
}

#[test]
fn golden_games_csv_of_a_chance_game_shares_luck_within_pairs() {
    // A match of `random` against itself entered twice (two agents, so a match, not
    // self-play) on Pig to 10: depends on the rules, the seed derivation, the
    // common-random-numbers keys of Pig's dice and `random`. The two games of a pair
    // draw the k-th die of turn t from the same key: in pair 0, turn 3 (the 4th) starts
    // with a 1 in both games; in pair 1, turn 2 starts with a 4 in both, though the
    // games differ before and after.
    let dir = scratch("golden-pig");
    // Pig to 10 with `agents`, 4 games per pairing, seed 5, one thread, into `out`.
    let pig = |agents: &[&str], out: &std::path::Path| {
        let mut args = vec!["tournament", "--game", "pig:target=10", "--agents"];
        args.extend_from_slice(agents);
        args.extend(["--games", "4", "--seed", "5", "--threads", "1", "--out"]);
        args.push(out.to_str().unwrap());
        agon(&args)
    };
    let out = dir.join("run");
    let o = pig(&["random", "random"], &out);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(out.join("games.csv")).unwrap(),
        "game,pair,pairing,agent0,agent1,side0,side1,result0,winner,end_reason,plies,turns,decisions0,decisions1,nodes0,nodes1,opening,moves,note,digest\n\
         0,0,0,random#1,random#2,first,second,1,0,target,16,7,7,4,7,4,0,roll 4 roll 5 hold roll 3 hold hold roll 1 hold hold roll 3 hold,,c93eedaaa82e4a08\n\
         1,0,0,random#2,random#1,first,second,0,1,target,17,6,4,7,4,7,0,hold hold hold roll 1 roll 6 hold roll 2 roll 3 roll 4 roll 2 hold,,a5bda8d41ebc07cf\n\
         2,1,0,random#1,random#2,first,second,1,0,target,14,5,7,2,7,2,0,hold roll 1 roll 4 hold hold roll 2 roll 2 roll 3 hold,,091bba4acf21b15d\n\
         3,1,0,random#2,random#1,first,second,1,0,target,7,3,4,1,4,1,0,hold hold roll 4 roll 6 hold,,bfd41b291a81c97c\n"
    );
    // Self-play of the same agent: every game is dealt its own luck, so the odd games
    // are not the even games' dice again (game 0 is as above: deal 0 is pair 0).
    let solo = dir.join("solo");
    let o = pig(&["random"], &solo);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(solo.join("games.csv")).unwrap(),
        "game,pair,pairing,agent0,agent1,side0,side1,result0,winner,end_reason,plies,turns,decisions0,decisions1,nodes0,nodes1,opening,moves,note,digest\n\
         0,0,0,random,random,first,second,1,0,target,16,7,7,4,7,4,0,roll 4 roll 5 hold roll 3 hold hold roll 1 hold hold roll 3 hold,,87694754e0c1a416\n\
         1,0,0,random,random,first,second,0,1,target,10,4,2,5,2,5,0,hold hold hold roll 5 roll 2 roll 6 hold,,01b78c7165f27c59\n\
         2,1,0,random,random,first,second,1,0,target,18,9,7,5,7,5,0,hold roll 5 hold roll 5 hold hold roll 1 hold roll 1 roll 1 roll 6 hold,,8aec99f9458a43db\n\
         3,1,0,random,random,first,second,0,1,target,9,4,2,4,2,4,0,hold hold roll 1 roll 6 roll 6 hold,,88f60507ea8087f5\n"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Each row of a games.csv as its moves (split into plies) and the length of its
/// opening, read by column name.
fn game_rows(path: &Path) -> Vec<(Vec<String>, usize)> {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let headers = reader.headers().unwrap().clone();
    let column = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let (moves, opening) = (column("moves"), column("opening"));
    reader
        .records()
        .map(|record| {
            let record = record.unwrap();
            let plies = record[moves].split(' ').map(str::to_string).collect();
            (plies, record[opening].parse().unwrap())
        })
        .collect()
}

#[test]
fn random_openings_vary_the_pairs_of_deterministic_agents() {
    let dir = scratch("random-opening");
    let run = |name: &str, extra: &[&str]| {
        let out = dir.join(name);
        let mut args = vec![
            "tournament",
            "--game",
            "invector:width=5,height=4,pie=false",
            "--agents",
            "ab:depth=1",
            "ab:depth=2",
            "--games",
            "6",
            "--seed",
            "3",
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend(extra);
        let o = agon(&args);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        (game_rows(&out.join("games.csv")), out)
    };
    // Without an opening, two alpha-beta agents replay one pair three times.
    let (plain, _) = run("plain", &[]);
    assert_eq!(plain[0], plain[2]);
    assert_eq!(plain[1], plain[5]);
    assert!(plain.iter().all(|(_, opening)| *opening == 0));

    let (rows, out) = run("opening", &["--random-opening", "4"]);
    let openings: Vec<Vec<String>> = rows
        .iter()
        .map(|(moves, opening)| {
            // Invector has no chance: the opening is exactly the 4 decisions (the pie rule
            // is off: with it on, an opening stops before White's swap decision).
            assert_eq!(*opening, 4, "{moves:?}");
            moves[..4].to_vec()
        })
        .collect();
    for p in 0..3 {
        assert_eq!(openings[2 * p], openings[2 * p + 1], "pair {p}");
        for q in 0..p {
            assert_ne!(openings[2 * p], openings[2 * q], "pairs {p} and {q}");
        }
    }
    // The games of different pairs differ.
    for g in 0..6 {
        for h in 0..g {
            assert_ne!(rows[g].0, rows[h].0, "games {g} and {h}");
        }
    }
    let meta = std::fs::read_to_string(out.join("meta.csv")).unwrap();
    assert!(
        meta.contains("\nrandom_opening,4\nopenings,\nopenings_hash,\n"),
        "{meta}"
    );
    // The same folder with another K is another run.
    let o = agon(&[
        "tournament",
        "--game",
        "invector:width=5,height=4,pie=false",
        "--agents",
        "ab:depth=1",
        "ab:depth=2",
        "--games",
        "6",
        "--seed",
        "3",
        "--out",
        out.to_str().unwrap(),
        "--random-opening",
        "5",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        format!(
            "error: output folder \"{}\" holds a different run (random opening \"4\" there, \
             \"5\" here); choose another --out or remove it\n",
            out.display()
        )
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn random_openings_of_chance_games_share_the_pair_luck() {
    // Pig with a 3-decision opening: chance outcomes in the opening do not count, and
    // both games of a pair open with the same plies, dice included; one and two threads
    // write the same games.
    let dir = scratch("random-opening-pig");
    let run = |threads: &str| {
        let out = dir.join(format!("run{threads}"));
        let o = agon(&[
            "tournament",
            "--game",
            "pig:target=20",
            "--agents",
            "random",
            "greedy",
            "--games",
            "8",
            "--seed",
            "2",
            "--random-opening",
            "3",
            "--threads",
            threads,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        std::fs::read_to_string(out.join("games.csv")).unwrap()
    };
    assert_eq!(run("1"), run("2"));
    let rows = game_rows(&dir.join("run1").join("games.csv"));
    for pair in rows.chunks(2) {
        let ((a, na), (b, nb)) = (&pair[0], &pair[1]);
        assert_eq!(a[..*na], b[..*nb]);
        let decisions = a[..*na].iter().filter(|m| *m == "roll" || *m == "hold");
        assert_eq!(decisions.count(), 3, "{a:?}");
        // The agents decide next.
        assert!(["roll", "hold"].contains(&a[*na].as_str()), "{a:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn openings_files_give_each_pair_its_line_and_are_checked_first() {
    let dir = scratch("openings");
    let file = dir.join("openings.txt");
    std::fs::write(&file, "# two openings\n\nb2xc2\n  c1xb1   a2xb2 \n").unwrap();
    let out = dir.join("run");
    let tournament = |openings: &Path, out: &Path| {
        agon(&[
            "tournament",
            "--game",
            "invector:width=3,height=2,pie=false",
            "--agents",
            "random",
            "--games",
            "6",
            "--seed",
            "5",
            "--openings",
            openings.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
    };
    let o = tournament(&file, &out);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Self-play: game g plays line g mod 2 (in a match, pair p would play line p mod 2).
    let rows = game_rows(&out.join("games.csv"));
    let lines = [vec!["b2xc2"], vec!["c1xb1", "a2xb2"]];
    for (g, (moves, opening)) in rows.iter().enumerate() {
        let line = &lines[g % 2];
        assert_eq!(*opening, line.len(), "{moves:?}");
        assert_eq!(moves[..*opening], line[..], "{moves:?}");
    }
    let meta = std::fs::read_to_string(out.join("meta.csv")).unwrap();
    assert!(
        meta.contains(&format!(
            "\nrandom_opening,0\nopenings,{}\nopenings_hash,",
            file.display()
        )),
        "{meta}"
    );
    // The same path with other contents is another run.
    std::fs::write(&file, "b2xc2\n").unwrap();
    let o = tournament(&file, &out);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("holds a different run (openings file contents (hash) \""),
        "{}",
        stderr(&o)
    );

    // Bad files: one line naming the file, the line and the move, nothing written.
    let bad = dir.join("bad.txt");
    let fresh = dir.join("never");
    let cases = [
        (
            "# comment\nb2xc2\n\nc1xb1 a1xa2\n",
            format!(
                "openings file {}: line 4: move 2 of 2, \"a1xa2\": a1 holds no white stone \
                 (legal here: a2xb2 a2xa1 c2xb2)",
                bad.display()
            ),
        ),
        (
            "c1xb1 zz\n",
            format!(
                "openings file {}: line 1: move 2 of 2, \"zz\": expected a step like c3-c4, \
                 a capture like c3xd3, pass or swap (legal here: a2xb2 a2xa1 c2xb2)",
                bad.display()
            ),
        ),
        (
            "b2xc2 a2xa1 c1xb1 a1xb1 c2-b2 b1xb2\n",
            format!(
                "openings file {}: line 1: the opening ends the game, leaving the agents \
                 nothing to play",
                bad.display()
            ),
        ),
        (
            "# nothing\n\n",
            format!(
                "openings file {} holds no opening (one move list per line; blank lines and \
                 lines starting with # are ignored)",
                bad.display()
            ),
        ),
    ];
    for (text, line) in cases {
        std::fs::write(&bad, text).unwrap();
        let o = tournament(&bad, &fresh);
        assert_eq!(o.status.code(), Some(2), "{text}");
        assert_eq!(stderr(&o), format!("error: {line}\n"), "{text}");
        assert!(!fresh.exists(), "{text}");
    }
    let missing = dir.join("missing.txt");
    let o = tournament(&missing, &fresh);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        format!(
            "error: cannot read openings file {}: No such file or directory (os error 2)\n",
            missing.display()
        )
    );
    assert!(!fresh.exists());
    assert_bad_input(
        &[
            "tournament",
            "--game",
            "invector",
            "--agents",
            "random",
            "--random-opening",
            "2",
            "--openings",
            file.to_str().unwrap(),
            "--out",
            fresh.to_str().unwrap(),
        ],
        "the argument '--random-opening <K>' cannot be used with '--openings <FILE>'",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
